import { MAY } from "../access/index.js";
import { linesOfDeal, lineTotalsOf, markDealLinesPaid } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { notFound } from "../errors.js";
import { detailWithLines } from "./detail.js";
import * as repo from "./repository.js";
import type { DealDetail } from "./schema.js";
import { announce, notAllowed, ONLY } from "./transition.js";
import { setStatus } from "./transitions-repository.js";

/** approved → paid: `paid_at`, and its approved lines (adjustments too) become `paid`. */
export async function markDealPaid(ctx: Ctx, id: string): Promise<DealDetail> {
  requireScope(ctx, "admin", MAY.markPaid);
  return withTransaction(ctx, async (tx) => {
    const before = await repo.lockDeal(tx, id);
    if (!before) throw notFound("Deal", id);
    if (before.status !== ONLY["marked paid"]) throw notAllowed(before, "marked paid");
    const after = await setStatus(tx, before, { status: "paid", paid_at: ctx.now, updated_at: ctx.now });
    await markDealLinesPaid(tx, id);
    const lines = await linesOfDeal(tx, id);
    const totals = lineTotalsOf(lines);
    await announce(tx, ctx, "deal.mark_paid", "deal.paid", before, after, { before: totals, after: totals });
    return detailWithLines(after, lines, null);
  });
}
