import { type Band, bandsOf, bandsTotal, sliceBands } from "./bands.js";
import { type CappedLine, type Multiplier, type PricedLine, planExplanation } from "./explain.js";
import { cents, type Fixed, gt, lt, max, minus, parse, plain, plus, roundCents, times, ZERO } from "./fixed.js";
import { dateNumber } from "./periods.js";
import { compareDealOrder } from "./plans.js";
import type { BucketEntry, BucketInput, PlanInput, PlanLineResult } from "./types.js";

/** A plan's terms parsed once per bucket: bands, minimum, and each deal type's multiplier on first use. */
export interface PlanTerms {
  plan: PlanInput;
  bands: Band[];
  minimum: Fixed | null;
  multipliers: Map<string, Multiplier>;
}

export function termsOf(plan: PlanInput, quota: string | null): PlanTerms {
  const minimum = plan.min_deal_amount === null ? null : parse(plan.min_deal_amount);
  return { plan, bands: bandsOf(plan, quota), minimum, multipliers: new Map() };
}

function multiplierFor(terms: PlanTerms, dealType: string): Multiplier {
  let multiplier = terms.multipliers.get(dealType);
  if (multiplier === undefined) {
    // Object.hasOwn: a deal type named "constructor" must not reach the prototype.
    const own = terms.plan.deal_type_multipliers;
    const value = parse((Object.hasOwn(own, dealType) ? own[dealType] : undefined) ?? 1);
    multiplier = { value, text: plain(value) };
    terms.multipliers.set(dealType, multiplier);
  }
  return multiplier;
}

/** Rule 4 for one line: graduated slices of [prior, prior + credit), × multiplier, rounded, minimum. */
export function priceLine(terms: PlanTerms, entry: BucketEntry, prior: Fixed): PricedLine {
  const credit = parse(entry.credit);
  const slices = sliceBands(terms.bands, prior, credit);
  const multiplier = multiplierFor(terms, entry.deal.deal_type);
  const unrounded = times(bandsTotal(slices), multiplier.value);
  const minDeal = terms.minimum !== null && lt(parse(entry.deal.arr_amount), terms.minimum) ? terms.minimum : null;
  const rounded = minDeal === null ? roundCents(unrounded) : ZERO;
  return { deal: entry.deal, credit, prior, slices, multiplier, unrounded, rounded, minDeal };
}

/** Rule 5: take min(own rounded amount, cap − used), never below 0.00. */
export function applyCap(rounded: Fixed, limit: { value: Fixed; text: string } | null, used: Fixed): CappedLine {
  if (limit === null) return { amount: rounded, cap: null };
  const room = minus(limit.value, used);
  const applied = gt(rounded, room);
  const amount = applied ? max(room, ZERO) : rounded;
  return { amount, cap: { limit: limit.text, before: plain(used), applied } };
}

function lockedUse(entries: BucketEntry[]): Fixed {
  let sum = ZERO;
  for (const e of entries) if (e.locked) sum = plus(sum, parse(e.lockedAmount ?? 0));
  return sum;
}

/**
 * The entries in deal order (a new array). String comparisons in the sort were the bucket's largest
 * cost, so canonical close dates compare as numbers and only equal dates go through compareDealOrder.
 */
function inDealOrder(entries: BucketEntry[]): BucketEntry[] {
  const keyed: { key: number; entry: BucketEntry }[] = [];
  for (const entry of entries) {
    const key = dateNumber(entry.deal.close_date);
    if (key < 0) return [...entries].sort((a, b) => compareDealOrder(a.deal, b.deal));
    keyed.push({ key, entry });
  }
  keyed.sort((a, b) => a.key - b.key || compareDealOrder(a.entry.deal, b.entry.deal));
  return keyed.map((k) => k.entry);
}

/** The terms for each quota a bucket's entries name (usually one), each parsed once. */
function termsByQuota(plan: PlanInput): (quota: string | null) => { terms: PlanTerms; text: string | null } {
  const cache = new Map<string | null, { terms: PlanTerms; text: string | null }>();
  return (quota) => {
    let found = cache.get(quota);
    if (found === undefined) {
      found = { terms: termsOf(plan, quota), text: quota === null ? null : plain(parse(quota)) };
      cache.set(quota, found);
    }
    return found;
  };
}

/**
 * Plan lines of one (user, plan, period) bucket, for its unlocked entries, in deal order.
 * Every entry's credit counts toward the attainment of later ones; locked amounts use the cap first.
 * Each entry is priced with its own quota (the assignment in force on its close_date, rule 4).
 */
export function calculateBucket(input: BucketInput): PlanLineResult[] {
  const { plan, period, userId } = input;
  const termsFor = termsByQuota(plan);
  const cap = plan.cap_per_period === null ? null : parse(plan.cap_per_period);
  const limit = cap === null ? null : { value: cap, text: plain(cap) };
  const ordered = inDealOrder(input.entries);
  let used = lockedUse(ordered);
  let prior = ZERO;
  const lines: PlanLineResult[] = [];
  for (const entry of ordered) {
    if (!entry.locked) {
      const { terms, text } = termsFor(entry.quota === undefined ? input.quota : entry.quota);
      const priced = priceLine(terms, entry, prior);
      const capped = applyCap(priced.rounded, limit, used);
      used = plus(used, capped.amount);
      lines.push({
        deal_id: entry.deal.id,
        user_id: userId,
        plan_id: plan.id,
        plan_version: plan.version,
        period,
        kind: "plan",
        amount: cents(capped.amount),
        explanation: planExplanation({ plan, period, quota: text }, priced, capped),
      });
      prior = plus(prior, priced.credit);
    } else {
      prior = plus(prior, parse(entry.credit));
    }
  }
  return lines;
}
