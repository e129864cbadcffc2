import { visibleUserIds } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import type { Db } from "../db/schema.js";
import { offsetOf, type Page, type RenderedPage } from "../http/pagination.js";
import * as listQuery from "./list-repository.js";
import type { Deal, ListDealsQuery } from "./schema.js";

// More delta rows than this in one count and the reader folds them (the retention job also does, every 10 min).
const COMPACT_AFTER_ROWS = 1000;

/** A page of deals as GET /deals sends it: the deals as the JSON text of the Deal schema. */
export async function listDealsRendered(ctx: Ctx, query: ListDealsQuery): Promise<RenderedPage> {
  requireScope(ctx, "read");
  const { limit, offset } = offsetOf(query);
  const visible = await visibleUserIds(ctx);
  const { dataText, total, deltaRows } = await listQuery.listDeals(ctx.db, query, visible, limit, offset);
  if (deltaRows > COMPACT_AFTER_ROWS && !ctx.db.isTransaction) void compactDealCounts(ctx.db).catch(() => {});
  return { dataText, meta: { page: query.page, per_page: query.per_page, total } };
}

export async function listDeals(ctx: Ctx, query: ListDealsQuery): Promise<Page<Deal>> {
  const { dataText, meta } = await listDealsRendered(ctx, query);
  return { data: JSON.parse(dataText) as Deal[], meta };
}

/** Folds the per-status deal count deltas (a total read sums fewer rows after). */
export function compactDealCounts(db: Db): Promise<void> {
  return listQuery.compactDealCounts(db);
}
