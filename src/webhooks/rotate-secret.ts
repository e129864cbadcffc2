import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { notFound } from "../errors.js";
import * as repo from "./repository.js";
import type { WebhookSubscriptionWithSecret } from "./schema.js";
import type { WebhookSettings } from "./settings.js";
import { newSecret, RESOURCE } from "./subscription-rules.js";

/** How long the previous secret keeps signing after rotate-secret. */
const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

/** A new secret, shown once; the current one becomes the previous and keeps signing for 24 h. */
export async function rotateSecret(
  ctx: Ctx,
  settings: WebhookSettings,
  id: string,
): Promise<WebhookSubscriptionWithSecret> {
  requireScope(ctx, "admin");
  const { secret, encrypted, hint } = newSecret(settings);
  return withTransaction(ctx, async (tx) => {
    const locked = await repo.lockSubscription(tx, id);
    if (!locked) throw notFound("Webhook subscription", id);
    const after = await repo.updateSubscription(tx, id, {
      secret_encrypted: encrypted,
      secret_hint: hint,
      previous_secret_encrypted: locked.secretEncrypted,
      previous_secret_expires_at: new Date(ctx.now.getTime() + ROTATION_GRACE_MS),
      updated_at: ctx.now,
    });
    const before = locked.subscription;
    await audit(tx, ctx, { action: `${RESOURCE}.rotate_secret`, resource: RESOURCE, resourceId: id, before, after });
    return { ...after, secret };
  });
}
