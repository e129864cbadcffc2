import { bookApproval } from "../accounting/index.js";
import { linesOfDeal, lineTotalsOf, lockDealLines } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { conflict } from "../errors.js";
import { detailWithLines } from "./detail.js";
import { lockDealAndUsers } from "./lock.js";
import type { DealRecord } from "./repository.js";
import type { DealDetail } from "./schema.js";
import { announce, notAllowed, ONLY } from "./transition.js";
import { setStatus } from "./transitions-repository.js";

/** API.md §15: a deal that still waits for an exchange rate would lock without the lines it is owed. */
function throwIfRatesMissing(deal: DealRecord): void {
  const pairs = JSON.parse(deal.fx_missing) as { from: string; to: string; close_date: string }[];
  if (pairs.length === 0) return;
  const named = pairs.map((p) => `${p.from}→${p.to}`).join(", ");
  throw conflict(
    `Deal ${deal.id} has no usable exchange rate for ${named} on ${deal.close_date}; ` +
      "PUT /exchange-rates for a date on or before it, then approve",
  );
}

/** pending → approved: its lines become approved and locked; no recalculation rewrites them again. */
export async function approveDeal(ctx: Ctx, id: string): Promise<DealDetail> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const before = await lockDealAndUsers(tx, id, []);
    if (before.status !== ONLY.approved) throw notAllowed(before, "approved");
    throwIfRatesMissing(before);
    const after = await setStatus(tx, before, { status: "approved", approved_at: ctx.now, updated_at: ctx.now });
    await lockDealLines(tx, id);
    await bookApproval(tx, after, ctx.now);
    // Approving moves no amount: the lines read for the response give the totals before and after.
    const lines = await linesOfDeal(tx, id);
    const totals = lineTotalsOf(lines);
    await announce(tx, ctx, "deal.approve", "deal.approved", before, after, { before: totals, after: totals });
    return detailWithLines(after, lines, null);
  });
}
