import { type Band, bandsOf, bandsTotal, sliceBands } from "./bands.js";
import { Dec, plain, roundCents, ZERO } from "./decimal.js";
import { type CappedLine, type PricedLine, planExplanation } from "./explain.js";
import { compareDealOrder } from "./plans.js";
import type { BucketEntry, BucketInput, DealInput, PlanInput, PlanLineResult } from "./types.js";

function multiplierFor(plan: PlanInput, dealType: string): Dec {
  // Object.hasOwn: a deal type named "constructor" must not reach the prototype.
  const factor = Object.hasOwn(plan.deal_type_multipliers, dealType) ? plan.deal_type_multipliers[dealType] : undefined;
  return new Dec(factor ?? 1);
}

function belowMinimum(plan: PlanInput, deal: DealInput): Dec | null {
  if (plan.min_deal_amount === null) return null;
  const minimum = new Dec(plan.min_deal_amount);
  return new Dec(deal.arr_amount).lt(minimum) ? minimum : null;
}

/** Rule 4 for one line: graduated slices of [prior, prior + credit), × multiplier, rounded, minimum. */
export function priceLine(plan: PlanInput, bands: Band[], entry: BucketEntry, prior: Dec): PricedLine {
  const credit = new Dec(entry.credit);
  const slices = sliceBands(bands, prior, credit);
  const multiplier = multiplierFor(plan, entry.deal.deal_type);
  const unrounded = bandsTotal(slices).times(multiplier);
  const minDeal = belowMinimum(plan, entry.deal);
  const rounded = minDeal === null ? roundCents(unrounded) : ZERO;
  return { deal: entry.deal, credit, prior, slices, multiplier, unrounded, rounded, minDeal };
}

/** Rule 5: take min(own rounded amount, cap − used), never below 0.00. */
export function applyCap(rounded: Dec, limit: Dec | null, used: Dec): CappedLine {
  if (limit === null) return { amount: rounded, cap: null };
  const room = limit.minus(used);
  const applied = rounded.gt(room);
  const amount = applied ? Dec.max(room, ZERO) : rounded;
  return { amount, cap: { limit: plain(limit), before: plain(used), applied } };
}

function lockedUse(entries: BucketEntry[]): Dec {
  return entries.reduce((sum, e) => (e.locked ? sum.plus(e.lockedAmount ?? 0) : sum), ZERO);
}

/**
 * Plan lines of one (user, plan, period) bucket, for its unlocked entries, in deal order.
 * Every entry's credit counts toward the attainment of later ones; locked amounts use the cap first.
 */
export function calculateBucket(input: BucketInput): PlanLineResult[] {
  const { plan, period, userId } = input;
  const bands = bandsOf(plan, input.quota);
  const limit = plan.cap_per_period === null ? null : new Dec(plan.cap_per_period);
  const ordered = [...input.entries].sort((a, b) => compareDealOrder(a.deal, b.deal));
  let used = lockedUse(ordered);
  let prior = ZERO;
  const lines: PlanLineResult[] = [];
  for (const entry of ordered) {
    if (!entry.locked) {
      const priced = priceLine(plan, bands, entry, prior);
      const capped = applyCap(priced.rounded, limit, used);
      used = used.plus(capped.amount);
      lines.push({
        deal_id: entry.deal.id,
        user_id: userId,
        plan_id: plan.id,
        plan_version: plan.version,
        period,
        kind: "plan",
        amount: capped.amount.toFixed(2),
        explanation: planExplanation(input, priced, capped),
      });
    }
    prior = prior.plus(entry.credit);
  }
  return lines;
}
