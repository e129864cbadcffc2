import { MAY } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { offsetOf, type Page } from "../http/pagination.js";
import * as payees from "./payees-repository.js";
import * as repo from "./repository.js";
import type { ListPayoutRunsQuery, PayoutRunSummary } from "./schema.js";

/** Runs without their payees, newest first (created_at desc, then creation order). */
export async function listPayoutRuns(ctx: Ctx, query: ListPayoutRunsQuery): Promise<Page<PayoutRunSummary>> {
  requireScope(ctx, "read", MAY.payoutRuns);
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listRuns(ctx.db, query, limit, offset);
  const totals = await payees.totalsOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return {
    data: rows.map((r) => repo.toSummary(r, totals.get(r.id)!)),
    meta: { page: query.page, per_page: query.per_page, total },
  };
}
