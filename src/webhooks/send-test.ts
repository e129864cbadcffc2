import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { AppError, notFound } from "../errors.js";
import { emit } from "../events/emit.js";
import { newId } from "../ids.js";
import * as deliveries from "./deliveries-repository.js";
import * as repo from "./repository.js";
import type { WebhookTestEvent } from "./schema.js";

export function disabled(id: string, what: string): AppError {
  return new AppError(
    "invalid_transition",
    `Webhook subscription ${id} is disabled; enable it (PATCH status active) before ${what}`,
  );
}

/**
 * Writes a `webhook.test` event and its one delivery, to this subscription only (the fan-out trigger
 * skips `webhook.test`). The object is the subscription as GET shows it.
 */
export async function sendTest(ctx: Ctx, id: string): Promise<WebhookTestEvent> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const subscription = (await repo.lockSubscription(tx, id))?.subscription;
    if (!subscription) throw notFound("Webhook subscription", id);
    if (subscription.status !== "active") throw disabled(id, "sending a test");
    const data = { object: subscription };
    const eventId = await emit(tx, ctx, "webhook.test", data);
    await deliveries.insertDelivery(tx, {
      id: newId("whdel", ctx.now.getTime()),
      subscription_id: id,
      event_id: eventId,
      event_type: "webhook.test",
      at: ctx.now,
    });
    await deliveries.notifyWorkers(tx);
    await audit(tx, ctx, { action: "webhook_subscription.test", resource: "webhook_subscription", resourceId: id });
    return { id: eventId, type: "webhook.test", created_at: ctx.now.toISOString(), data };
  });
}
