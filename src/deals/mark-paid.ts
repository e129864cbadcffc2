import { MAY } from "../access/index.js";
import {
  linesOfDeal,
  lineTotalsOf,
  lockPayments,
  lockRunOfDealLines,
  markDealLinesPaid,
} from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { conflict, notFound } from "../errors.js";
import { detailWithLines } from "./detail.js";
import * as repo from "./repository.js";
import type { DealDetail } from "./schema.js";
import { announce, notAllowed, ONLY } from "./transition.js";
import { setStatus } from "./transitions-repository.js";

/**
 * approved → paid: `paid_at`, and its approved lines (adjustments too) become `paid`; refused (409) while
 * a draft payout run holds one of them.
 */
export async function markDealPaid(ctx: Ctx, id: string): Promise<DealDetail> {
  requireScope(ctx, "admin", MAY.markPaid);
  return withTransaction(ctx, async (tx) => {
    await lockPayments(tx, "mark-paid");
    const before = await repo.lockDeal(tx, id);
    if (!before) throw notFound("Deal", id);
    if (before.status !== ONLY["marked paid"]) throw notAllowed(before, "marked paid");
    // API.md §13: a line in a draft payout run is paid by finalizing the run, not here.
    const run = await lockRunOfDealLines(tx, id);
    if (run) throw conflict(`Deal ${id} has lines in draft payout run ${run}; finalize or cancel the run first`);
    const after = await setStatus(tx, before, { status: "paid", paid_at: ctx.now, updated_at: ctx.now });
    await markDealLinesPaid(tx, id);
    const lines = await linesOfDeal(tx, id);
    const totals = lineTotalsOf(lines);
    await announce(tx, ctx, "deal.mark_paid", "deal.paid", before, after, { before: totals, after: totals });
    return detailWithLines(after, lines, null);
  });
}
