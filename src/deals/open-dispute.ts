import { dealSeen, MAY, type Visible, visibleUserIds } from "../access/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import type { Dispute, OpenDisputeBody } from "../disputes/index.js";
import * as disputes from "../disputes/index.js";
import { AppError, notFound } from "../errors.js";
import { checkMinorUnits } from "../http/commission-fields.js";
import { disputeTotals } from "./commission-totals.js";
import type * as repo from "./repository.js";
import { dealChanged, lockedDeal, totalsOf, wrongStatus } from "./transition.js";
import { setStatus } from "./transitions-repository.js";

/**
 * A rep or manager disputes only a deal they own or are credited on themselves (API.md §11): a deal
 * they do not see → 404; a report's deal → 403.
 */
function mayDispute(ctx: Ctx, visible: Visible, deal: repo.DealRecord): void {
  const { actor } = ctx;
  if (actor.type !== "user" || actor.role === "admin") return;
  if (!dealSeen(visible, deal)) throw notFound("Deal", deal.id);
  if (!dealSeen([actor.userId], deal)) {
    throw new AppError(
      "forbidden",
      `Disputing a deal you neither own nor are credited on needs the admin role; you are ${actor.role}`,
    );
  }
}

export async function openDispute(ctx: Ctx, dealId: string, input: OpenDisputeBody): Promise<Dispute> {
  requireScope(ctx, "write", MAY.openDispute);
  const visible = await visibleUserIds(ctx); // before the transaction: PGlite has one connection
  return withTransaction(ctx, async (tx) => {
    const deal = await lockedDeal(tx, dealId);
    mayDispute(ctx, visible, deal);
    // API.md §15: in the currency of the total it disputes (the opener's own lines' for a rep or manager).
    const { actor } = ctx;
    const scopeUser = actor.type === "user" && (actor.role === "rep" || actor.role === "manager") ? actor.userId : null;
    checkMinorUnits(disputeTotals(deal, scopeUser).total_commission_currency, {
      expected_amount: input.expected_amount,
    });
    if (deal.status !== "approved") throw wrongStatus(deal, "approved", "disputed");
    const after = await setStatus(tx, deal, { status: "disputed", updated_at: ctx.now });
    const dispute = await disputes.recordOpenedDispute(tx, ctx, dealId, input);
    const totals = await totalsOf(tx, dealId); // opening moves no amount
    const change = { action: "deal.dispute", before: deal, now: after };
    await dealChanged(tx, ctx, change, { before: totals, after: totals }, "deal.disputed");
    return dispute;
  });
}
