import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { AppError, notFound } from "../errors.js";
import * as deliveries from "./deliveries-repository.js";
import * as repo from "./repository.js";
import type { WebhookDelivery } from "./schema.js";
import { disabled } from "./send-test.js";

/**
 * Queues one more attempt now: a pending delivery keeps its schedule after it, a succeeded or failed
 * one gets exactly this attempt. Refused while an attempt is running or the subscription is disabled.
 */
export async function retryDelivery(ctx: Ctx, id: string): Promise<WebhookDelivery> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const row = await deliveries.lockDelivery(tx, id);
    if (!row) throw notFound("Webhook delivery", id);
    const subscription = await repo.findSubscription(tx, row.subscription_id);
    if (subscription?.status !== "active") throw disabled(row.subscription_id, "retrying its deliveries");
    const leasedUntil = row.locked_until === null ? 0 : new Date(row.locked_until).getTime();
    if (row.claimed_by !== null && leasedUntil > ctx.now.getTime()) {
      throw new AppError("conflict", `Webhook delivery ${id} is being attempted right now; retry once it finishes`);
    }
    const finalAttempt = row.status === "pending" ? row.final_attempt : row.attempt_count + 1;
    const after = await deliveries.queueAttemptNow(tx, id, ctx.now, finalAttempt);
    await deliveries.notifyWorkers(tx);
    const before = { status: row.status, next_attempt_at: row.next_attempt_at };
    await audit(tx, ctx, {
      action: "webhook_delivery.retry",
      resource: "webhook_delivery",
      resourceId: id,
      before,
      after: { status: after.status, next_attempt_at: after.next_attempt_at },
    });
    return after;
  });
}
