import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import { offsetOf, type Page } from "../http/pagination.js";
import * as deliveries from "./deliveries-repository.js";
import * as repo from "./repository.js";
import type { ListDeliveriesQuery, WebhookDelivery } from "./schema.js";

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
