import { type Band, bandsOf, bandsTotal, sliceBands } from "./bands.js";
import {
  type CapLimit,
  type CappedLine,
  type LineContext,
  type Multiplier,
  type PricedLine,
  planExplanation,
} from "./explain.js";
import { cents, type Fixed, gt, lt, max, minus, parse, plain, plus, roundCents, times, ZERO } from "./fixed.js";
import { dateNumber } from "./periods.js";
import { compareDealOrder } from "./plans.js";
import type { BucketEntry, BucketInput, PlanInput, PlanLineExplanation, PlanLineResult } from "./types.js";

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
export function applyCap(rounded: Fixed, limit: CapLimit | null, used: Fixed): CappedLine {
  if (limit === null) return { amount: rounded, limit: null, used, applied: false };
  const room = minus(limit.value, used);
  const applied = gt(rounded, room);
  return { amount: applied ? max(room, ZERO) : rounded, limit, used, applied };
}

/**
 * A plan line whose explanation is written on its first read, from the values the computation kept (all
 * immutable): most computed lines are only compared by amount or summed, and writing every explanation
 * was most of the engine's time (bench/README.md). `explanation` is an own enumerable accessor (one shared
 * getter, so every line keeps one shape), so spreading, JSON.stringify and deep equality see it as they
 * did; the first read replaces it with the value. The inputs sit in private fields, which none of those see.
 */
class PlanLine {
  readonly deal_id: string;
  readonly user_id: string;
  readonly plan_id: string;
  readonly plan_version: number;
  readonly period: string;
  readonly kind = "plan" as const;
  readonly amount: string;
  declare readonly explanation: PlanLineExplanation;
  readonly #ctx: LineContext;
  readonly #priced: PricedLine;
  readonly #capped: CappedLine;

  constructor(userId: string, ctx: LineContext, priced: PricedLine, capped: CappedLine) {
    this.deal_id = priced.deal.id;
    this.user_id = userId;
    this.plan_id = ctx.plan.id;
    this.plan_version = ctx.plan.version;
    this.period = ctx.period;
    this.amount = cents(capped.amount);
    this.#ctx = ctx;
    this.#priced = priced;
    this.#capped = capped;
    Object.defineProperty(this, "explanation", LAZY_EXPLANATION);
  }

  static explain(line: PlanLine): PlanLineExplanation {
    const value = planExplanation(line.#ctx, line.#priced, line.#capped);
    Object.defineProperty(line, "explanation", { value, enumerable: true, writable: true, configurable: true });
    return value;
  }
}

const LAZY_EXPLANATION: PropertyDescriptor = {
  get(this: PlanLine) {
    return PlanLine.explain(this);
  },
  enumerable: true,
  configurable: true,
};

function lockedUse(entries: BucketEntry[]): Fixed {
  let sum = ZERO;
  for (const e of entries) if (e.locked) sum = plus(sum, parse(e.lockedAmount ?? 0));
  return sum;
}

const INDEX_BITS = 2 ** 20;

/**
 * The entries in deal order (a new array). Comparator calls were the bucket's largest cost, so each
 * entry's canonical close date and position go in one number (date × 2^20 + index, exact below 2^53),
 * sorted natively; only runs of equal dates go through compareDealOrder (created_at, then id).
 */
function inDealOrder(entries: BucketEntry[]): BucketEntry[] {
  const n = entries.length;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const date = dateNumber(entries[i]!.deal.close_date);
    if (date < 0 || n >= INDEX_BITS) return [...entries].sort((a, b) => compareDealOrder(a.deal, b.deal));
    keys[i] = date * INDEX_BITS + i;
  }
  keys.sort();
  const ordered: BucketEntry[] = new Array(n);
  let runStart = 0;
  for (let i = 0; i < n; i++) {
    ordered[i] = entries[keys[i]! % INDEX_BITS]!;
    const runEnds = i + 1 === n || Math.floor(keys[i + 1]! / INDEX_BITS) !== Math.floor(keys[i]! / INDEX_BITS);
    if (runEnds) {
      if (i > runStart) sortRun(ordered, runStart, i + 1);
      runStart = i + 1;
    }
  }
  return ordered;
}

/** Sorts ordered[from, to) (one close date) by compareDealOrder, in place. */
function sortRun(ordered: BucketEntry[], from: number, to: number): void {
  const run = ordered.slice(from, to).sort((a, b) => compareDealOrder(a.deal, b.deal));
  for (let i = 0; i < run.length; i++) ordered[from + i] = run[i]!;
}

/** The terms for each quota a bucket's entries name (usually one), each parsed once, with its lines' context. */
function termsByQuota(
  plan: PlanInput,
  period: string,
): (quota: string | null) => { terms: PlanTerms; ctx: LineContext } {
  const cache = new Map<string | null, { terms: PlanTerms; ctx: LineContext }>();
  return (quota) => {
    let found = cache.get(quota);
    if (found === undefined) {
      const text = quota === null ? null : plain(parse(quota));
      found = { terms: termsOf(plan, quota), ctx: { plan, period, quota: text } };
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
  const termsFor = termsByQuota(plan, period);
  const cap = plan.cap_per_period === null ? null : parse(plan.cap_per_period);
  const limit = cap === null ? null : { value: cap, text: plain(cap) };
  const ordered = inDealOrder(input.entries);
  let used = lockedUse(ordered);
  let prior = ZERO;
  const lines: PlanLineResult[] = [];
  for (const entry of ordered) {
    if (!entry.locked) {
      const { terms, ctx } = termsFor(entry.quota === undefined ? input.quota : entry.quota);
      const priced = priceLine(terms, entry, prior);
      const capped = applyCap(priced.rounded, limit, used);
      used = plus(used, capped.amount);
      lines.push(new PlanLine(userId, ctx, priced, capped));
      prior = plus(prior, priced.credit);
    } else {
      prior = plus(prior, parse(entry.credit));
    }
  }
  return lines;
}
