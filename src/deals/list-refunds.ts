import { visibleUserIds } from "../access/index.js";
import { linesOfDeal } from "../commissions/index.js";
import type { Ctx } from "../context.js";
import { AppError, notFound } from "../errors.js";
import { offsetOf, type Page } from "../http/pagination.js";
import { getDeal } from "./read.js";
import * as refunds from "./refunds-repository.js";
import type { ListRefundsQuery, Refund } from "./schema.js";

/** The clawback line ids a reader who sees only some people may see (API.md §20 b); all for everyone else. */
async function visibleLines(ctx: Ctx, dealId: string, rows: Refund[]): Promise<Refund[]> {
  const visible = await visibleUserIds(ctx);
  if (!visible) return rows;
  const lines = await linesOfDeal(ctx.db, dealId);
  const seen = new Set(lines.filter((l) => visible.includes(l.user_id)).map((l) => l.id));
  return rows.map((r) => ({ ...r, clawback_line_ids: r.clawback_line_ids.filter((lineId) => seen.has(lineId)) }));
}

/** GET /refunds/{id}: a refund for whoever sees its deal (404 otherwise, as for an unknown id). */
export async function getRefund(ctx: Ctx, id: string): Promise<Refund> {
  const refund = await refunds.findRefund(ctx.db, id);
  if (!refund) throw notFound("Refund", id);
  await getDeal(ctx, refund.deal_id).catch((e: unknown) => {
    throw e instanceof AppError && e.code === "not_found" ? notFound("Refund", id) : e;
  });
  return (await visibleLines(ctx, refund.deal_id, [refund]))[0]!;
}

/**
 * GET /deals/{id}/refunds (API.md §14), for whoever sees the deal (404 otherwise), newest first. A reader
 * who sees only some people gets only the ids of their clawback lines (API.md §20 b).
 */
export async function listRefunds(ctx: Ctx, dealId: string, query: ListRefundsQuery): Promise<Page<Refund>> {
  await getDeal(ctx, dealId);
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await refunds.listRefunds(ctx.db, dealId, limit, offset);
  const visible = await visibleUserIds(ctx);
  let data = rows;
  if (visible) {
    const seen = new Set(
      (await linesOfDeal(ctx.db, dealId)).filter((l) => visible.includes(l.user_id)).map((l) => l.id),
    );
    data = rows.map((r) => ({ ...r, clawback_line_ids: r.clawback_line_ids.filter((lineId) => seen.has(lineId)) }));
  }
  return { data, meta: { page: query.page, per_page: query.per_page, total } };
}
