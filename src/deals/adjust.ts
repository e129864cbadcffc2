import { MAY } from "../access/index.js";
import { bookDeal } from "../accounting/index.js";
import { audit } from "../audit/record.js";
import {
  addAdjustment,
  type Commission,
  type CreateAdjustmentBody,
  defaultAdjustmentCurrency,
  defaultAdjustmentPeriod,
  lockForRecalc,
} from "../commissions/index.js";
import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import { AppError, conflict, validationError } from "../errors.js";
import { checkMinorUnits } from "../http/commission-fields.js";
import { creditedUsers } from "./records.js";
import * as repo from "./repository.js";

/*
 * POST /commissions/adjustments (API.md §4). It changes a deal's total, so it lives with the deal
 * workflow: the credited users' recalculation locks, then the deal row, as approve and reject take
 * them, so a recalculation of the deal and a transition both serialize with it. The route is declared in
 * commissions/routes/adjustments.ts, the feature its URL names.
 */

async function lockDealFor(tx: Tx, input: CreateAdjustmentBody): Promise<repo.DealRecord> {
  const seen = await repo.findDeal(tx, input.deal_id);
  if (!seen) throw validationError("deal_id", `deal ${input.deal_id} does not exist`);
  const known = await lockForRecalc(tx, { users: [input.user_id, ...creditedUsers([seen])] });
  if (!known.has(input.user_id)) throw validationError("user_id", `user ${input.user_id} does not exist`);
  const deal = await repo.lockDeal(tx, input.deal_id);
  if (!deal) throw validationError("deal_id", `deal ${input.deal_id} does not exist`);
  if (creditedUsers([deal]).some((u) => !known.has(u))) {
    throw conflict(`Deal ${deal.id} changed while this request ran; retry`);
  }
  return deal;
}

/** An approved, locked adjustment line for the deal's owner or one of its credited users. */
export async function createAdjustment(ctx: Ctx, input: CreateAdjustmentBody): Promise<Commission> {
  requireScope(ctx, "admin", MAY.adjust);
  return withTransaction(ctx, async (tx) => {
    const deal = await lockDealFor(tx, input);
    // API.md §15: the adjustment's own currency, by default its user's plan line's on the deal.
    const currency = input.currency ?? (await defaultAdjustmentCurrency(tx, deal, input.user_id));
    checkMinorUnits(currency, { amount: input.amount });
    if (deal.owner_id !== input.user_id && !creditedUsers([deal]).includes(input.user_id)) {
      throw validationError(
        "user_id",
        `user ${input.user_id} is neither the owner of deal ${deal.id} nor credited on it`,
      );
    }
    if (deal.status === "rejected") {
      throw new AppError(
        "invalid_transition",
        `Deal ${deal.id} is rejected; a rejected deal takes no adjustment (edit it to resubmit it first)`,
      );
    }
    const period = input.period ?? (await defaultAdjustmentPeriod(tx, input.user_id, deal.currency, ctx.now));
    const line = await addAdjustment(tx, ctx, { ...input, currency, period });
    await bookDeal(tx, deal.id, deal);
    const after = repo.toDeal((await repo.findDeal(tx, deal.id))!);
    await audit(tx, ctx, { action: "commission.adjust", resource: "commission", resourceId: line.id, after: line });
    await audit(tx, ctx, {
      action: "deal.adjust",
      resource: "deal",
      resourceId: deal.id,
      before: repo.toDeal(deal),
      after,
    });
    return line;
  });
}
