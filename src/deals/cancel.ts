import { bookDeal } from "../accounting/index.js";
import { announceClawbacks, linesOfDeal, lineTotalsOf, planClawbacks, writeClawbacks } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { cancelRefused, checkEffectiveDate, clawbackDeal } from "./clawbacks.js";
import { lineSumsOf } from "./commission-totals.js";
import { detailWithLines } from "./detail.js";
import { lockDealAndUsers } from "./lock.js";
import { refundsOf } from "./refunds-repository.js";
import type { CancelDealBody, DealCancelled } from "./schema.js";
import { announce, totalsOf } from "./transition.js";
import { setStatus } from "./transitions-repository.js";

/**
 * approved | paid → cancelled (API.md §14), final: each person's clawback line per plan under the clawed
 * version's policy, written approved and locked. The deal's lines stay as they are and keep counting in
 * attainment. Locks like approve: the credited users, then the deal row, so of concurrent transitions one wins.
 */
export async function cancelDeal(ctx: Ctx, id: string, input: CancelDealBody): Promise<DealCancelled> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const before = await lockDealAndUsers(tx, id, []);
    checkEffectiveDate(before, input.effective_date);
    const refused = cancelRefused(before);
    if (refused) throw refused;
    const totalsBefore = await totalsOf(tx, id);
    const planned = await planClawbacks(tx, clawbackDeal(before), await refundsOf(tx, id), {
      type: "cancel",
      effective_date: input.effective_date,
      reason: input.reason,
    });
    const written = await writeClawbacks(tx, ctx, id, planned, null);
    const stored = await setStatus(tx, before, {
      status: "cancelled",
      cancelled_at: ctx.now,
      cancel_reason: input.reason,
      cancel_effective_date: input.effective_date,
      updated_at: ctx.now,
    });
    await bookDeal(tx, id, stored);
    const lines = await linesOfDeal(tx, id);
    const after = { ...stored, line_sums: lineSumsOf(lines) }; // with its clawback lines
    const totals = lineTotalsOf(lines);
    await announce(tx, ctx, "deal.cancel", "deal.cancelled", before, after, { before: totalsBefore, after: totals });
    await announceClawbacks(tx, ctx, written);
    return { ...detailWithLines(after, lines, null), clawback_summary: planned.clawback_summary };
  });
}
