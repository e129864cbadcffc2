import { MAY, visibleUserIds } from "../../access/index.js";
import { type Ctx, requireScope } from "../../context.js";
import { offsetOf, type Page } from "../../http/pagination.js";
import type { ListPayoutsQuery, PayoutGroup } from "../schema.js";
import { listPayoutGroups } from "./payouts-repository.js";

/** What is approved and not yet paid, by payee, period and currency (finance's payout run). */
export async function listPayouts(ctx: Ctx, query: ListPayoutsQuery): Promise<Page<PayoutGroup>> {
  requireScope(ctx, "read", MAY.readPayouts);
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await listPayoutGroups(ctx.db, query, await visibleUserIds(ctx), limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}
