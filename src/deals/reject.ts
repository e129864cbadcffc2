import { bucketsOfDeals, recalculate, refreshTotals, voidDealLines } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { detailOfRecord } from "./detail.js";
import { lockDealAndUsers } from "./lock.js";
import type { DealDetail } from "./schema.js";
import { announce, notAllowed, ONLY } from "./transition.js";
import { setStatus } from "./transitions-repository.js";

/**
 * pending → rejected: its lines are voided (out of every total and attainment), and the later pending
 * deals of the buckets it sat in are recalculated without it. The status is set once its total is
 * refreshed, so the record it returns is final: the recalculation leaves a rejected deal's row alone.
 */
export async function rejectDeal(ctx: Ctx, id: string, reason: string): Promise<DealDetail> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const before = await lockDealAndUsers(tx, id, []);
    if (before.status !== ONLY.rejected) throw notAllowed(before, "rejected");
    const left = await bucketsOfDeals(tx, [id]);
    const voided = await voidDealLines(tx, id);
    await refreshTotals(tx, ctx.now, [id]);
    const stored = await setStatus(tx, before, { status: "rejected", rejection_reason: reason, updated_at: ctx.now });
    const after = { ...stored, line_sums: [] }; // every line voided
    const { jobId } = await recalculate(tx, ctx, [{ type: "deals", deal_ids: [id], buckets: left }], {
      primaryDeals: [id],
      announce: () => announce(tx, ctx, "deal.reject", "deal.rejected", before, after, { before: voided, after: {} }),
    });
    return detailOfRecord(tx, after, jobId);
  });
}
