import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { AppError, notFound } from "../errors.js";
import { emit } from "../events/emit.js";
import { offsetOf, type Page } from "../http/pagination.js";
import { newId } from "../ids.js";
import * as deliveries from "./deliveries-repository.js";
import * as repo from "./repository.js";
import type { ListDeliveriesQuery, WebhookDelivery, WebhookTestEvent } from "./schema.js";

function disabled(id: string, what: string): AppError {
  return new AppError(
    "invalid_transition",
    `Webhook subscription ${id} is disabled; enable it (PATCH status active) before ${what}`,
  );
}

export async function listDeliveries(
  ctx: Ctx,
  subscriptionId: string,
  query: ListDeliveriesQuery,
): Promise<Page<WebhookDelivery>> {
  requireScope(ctx, "admin");
  if (!(await repo.findSubscription(ctx.db, subscriptionId))) throw notFound("Webhook subscription", subscriptionId);
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await deliveries.listDeliveries(ctx.db, subscriptionId, query, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
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
