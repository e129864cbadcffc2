import { bookDeal } from "../accounting/index.js";
import { audit } from "../audit/record.js";
import {
  addAdjustment,
  type Commission,
  type DisputeSource,
  disputeAdjustmentPeriod,
  disputeReason,
  fullyPaidDeals,
} from "../commissions/index.js";
import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import type { Dispute, ResolveDisputeBody } from "../disputes/index.js";
import * as disputes from "../disputes/index.js";
import { AppError } from "../errors.js";
import { emit } from "../events/emit.js";
import { checkMinorUnits } from "../http/commission-fields.js";
import { compareTexts, minus, moneyText, parse, plain, plus } from "../money/index.js";
import { disputeTotals, type LineSum, lineSumsOf } from "./commission-totals.js";
import { type DealRecord, toDeal } from "./repository.js";
import { dealChanged, lockedDeal, totalsOf, wrongStatus } from "./transition.js";
import { setStatus } from "./transitions-repository.js";

// disputed → approved; the route is declared in disputes/routes.ts, the feature its URL names.

/** The total the admin accepts: null when no amount changes. */
function acceptedTotal(input: ResolveDisputeBody, expected: string | null): string | null {
  if (input.outcome === "denied") {
    if (input.resolved_amount !== undefined) {
      throw new AppError("validation_error", "A denied dispute changes no amount", [
        { param: "resolved_amount", message: "is not allowed when outcome is denied" },
      ]);
    }
    return null;
  }
  if (input.outcome === "partially_approved" && input.resolved_amount === undefined) {
    throw new AppError("validation_error", "partially_approved needs the accepted total", [
      { param: "resolved_amount", message: "is required when outcome is partially_approved" },
    ]);
  }
  return input.resolved_amount ?? expected;
}

/**
 * The adjustment line for the difference, to `userId` (the opener of a user-scope dispute, else the
 * deal's owner), written like a manual one (§5 rule 8: the explanation names the dispute and its
 * resolver; `commission.calculated`; an audit row). Returns its amount.
 */
async function adjustForDispute(
  tx: Tx,
  ctx: Ctx,
  to: { deal: DealRecord; userId: string; currency: string },
  source: DisputeSource,
  note?: string,
): Promise<Commission> {
  const { deal, userId, currency } = to;
  const amount = moneyText(minus(parse(source.accepted_total), parse(source.previous_total)), currency);
  const line = await addAdjustment(tx, ctx, {
    deal_id: deal.id,
    user_id: userId,
    amount,
    currency,
    reason: disputeReason(source, currency, note ?? null),
    period: await disputeAdjustmentPeriod(tx, deal.id, userId, ctx.now),
    dispute: source,
  });
  await audit(tx, ctx, { action: "commission.adjust", resource: "commission", resourceId: line.id, after: line });
  await bookDeal(tx, deal.id, deal);
  return line;
}

export async function resolveDispute(ctx: Ctx, id: string, input: ResolveDisputeBody): Promise<Dispute> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const { deal_id: dealId } = await disputes.disputeOf(tx, id);
    const deal = await lockedDeal(tx, dealId);
    const open = await disputes.lockOpenDispute(tx, id);
    // API.md §15: the dispute's amounts are in its scope's total_commission_currency, and so is the adjustment.
    const scope = disputeTotals(deal, open.scope_user_id);
    const currency = scope.total_commission_currency;
    checkMinorUnits(currency, { resolved_amount: input.resolved_amount });
    if (deal.status !== "disputed") throw wrongStatus(deal, "disputed", "resolved");
    const accepted = acceptedTotal(input, open.expected_amount);
    const before = await totalsOf(tx, dealId);
    const after = { ...before };
    let added: LineSum[] = [];
    // API.md §20 (b): a user-scope dispute is about its opener's lines, and adjusts them.
    const userId = open.scope_user_id ?? deal.owner_id;
    const current = String(scope.total_commission);
    if (accepted !== null && compareTexts(accepted, current) !== 0) {
      const source = {
        id,
        outcome: input.outcome,
        previous_total: moneyText(parse(current), currency),
        accepted_total: moneyText(parse(accepted), currency),
      };
      const line = await adjustForDispute(tx, ctx, { deal, userId, currency }, source, input.note);
      after[userId] = plain(plus(parse(after[userId] ?? 0), parse(line.amount)));
      added = lineSumsOf([line]);
    }
    const dispute = await disputes.recordResolution(tx, ctx, open, {
      outcome: input.outcome,
      resolution_note: input.note ?? null,
      resolved_amount: accepted,
      resolved_at: ctx.now,
    });
    // The adjustment refreshed the deal's total: the update's RETURNING carries it. A payout run may have
    // paid every line meanwhile (API.md §13): then the deal is paid.
    const paid = (await fullyPaidDeals(tx, [dealId])).has(dealId);
    const change = paid ? { status: "paid" as const, paid_at: ctx.now } : { status: "approved" as const };
    const stored = await setStatus(tx, deal, { ...change, updated_at: ctx.now });
    const now = { ...stored, line_sums: [...(deal.line_sums ?? []), ...added] };
    await dealChanged(tx, ctx, { action: "deal.resolve_dispute", before: deal, now }, { before, after });
    if (paid) await emit(tx, ctx, "deal.paid", { object: toDeal(now) });
    return dispute;
  });
}
