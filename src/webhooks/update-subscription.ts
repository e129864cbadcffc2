import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { notFound } from "../errors.js";
import * as repo from "./repository.js";
import type { UpdateSubscriptionBody, WebhookSubscription } from "./schema.js";
import type { WebhookSettings } from "./settings.js";
import { checkTarget, RESOURCE } from "./subscription-rules.js";

function changesOf(before: WebhookSubscription, input: UpdateSubscriptionBody) {
  const changed = {
    url: input.url !== undefined && input.url !== before.url,
    description: input.description !== undefined && input.description !== before.description,
    events: input.events !== undefined && JSON.stringify(input.events) !== JSON.stringify(before.events),
    status: input.status !== undefined && input.status !== before.status,
  };
  return { any: Object.values(changed).some(Boolean), ...changed };
}

export async function updateSubscription(
  ctx: Ctx,
  settings: WebhookSettings,
  id: string,
  input: UpdateSubscriptionBody,
): Promise<WebhookSubscription> {
  requireScope(ctx, "admin");
  if (input.url !== undefined) await checkTarget(settings, input.url);
  return withTransaction(ctx, async (tx) => {
    const before = (await repo.lockSubscription(tx, id))?.subscription;
    if (!before) throw notFound("Webhook subscription", id);
    await ctx.precondition?.(tx);
    const changed = changesOf(before, input);
    if (!changed.any) return before;
    const after = await repo.updateSubscription(tx, id, {
      ...(changed.url ? { url: input.url! } : {}),
      ...(changed.description ? { description: input.description ?? null } : {}),
      ...(changed.events ? { events: JSON.stringify(input.events) } : {}),
      // Either way the service's own reason and failure clock no longer apply.
      ...(changed.status ? { status: input.status!, disabled_reason: null, failing_since: null } : {}),
      updated_at: ctx.now,
    });
    await audit(tx, ctx, { action: `${RESOURCE}.update`, resource: RESOURCE, resourceId: id, before, after });
    return after;
  });
}
