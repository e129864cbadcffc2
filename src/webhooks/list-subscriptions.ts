import { type Ctx, requireScope } from "../context.js";
import { offsetOf, type Page } from "../http/pagination.js";
import * as repo from "./repository.js";
import type { ListSubscriptionsQuery, WebhookSubscription } from "./schema.js";

export async function listSubscriptions(ctx: Ctx, query: ListSubscriptionsQuery): Promise<Page<WebhookSubscription>> {
  requireScope(ctx, "admin");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listSubscriptions(ctx.db, query, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}
