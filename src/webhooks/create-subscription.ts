import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { newId } from "../ids.js";
import * as repo from "./repository.js";
import type { CreateSubscriptionBody, WebhookSubscriptionWithSecret } from "./schema.js";
import type { WebhookSettings } from "./settings.js";
import { checkTarget, newSecret, RESOURCE } from "./subscription-rules.js";

export async function createSubscription(
  ctx: Ctx,
  settings: WebhookSettings,
  input: CreateSubscriptionBody,
): Promise<WebhookSubscriptionWithSecret> {
  requireScope(ctx, "admin");
  await checkTarget(settings, input.url);
  const { secret, encrypted, hint } = newSecret(settings);
  return withTransaction(ctx, async (tx) => {
    const subscription = await repo.insertSubscription(tx, {
      id: newId("whsub", ctx.now.getTime()),
      url: input.url,
      description: input.description ?? null,
      events: JSON.stringify(input.events),
      status: "active",
      disabled_reason: null,
      secret_encrypted: encrypted,
      secret_hint: hint,
      previous_secret_encrypted: null,
      previous_secret_expires_at: null,
      failing_since: null,
      created_at: ctx.now,
      updated_at: ctx.now,
    });
    await audit(tx, ctx, {
      action: `${RESOURCE}.create`,
      resource: RESOURCE,
      resourceId: subscription.id,
      after: subscription,
    });
    return { ...subscription, secret };
  });
}
