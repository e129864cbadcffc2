import {
  centsText,
  type Fixed,
  fixedText,
  fx,
  gt,
  lcm,
  lt,
  max,
  minorUnits,
  minus,
  parse,
  plain,
  plus,
  times,
  ZERO,
} from "../../money/index.js";
import { bandsTotal, sliceBands } from "./bands.js";
import { convertScaled, roundLine } from "./convert.js";
import { type CapLimit, type CappedLine, type LineContext, type PricedLine, planExplanation } from "./explain.js";
import { keysOf } from "./keys.js";
import { dealOrder } from "./order.js";
import { priceScaled, type ScaledBucket } from "./scaled.js";
import { multiplierFor, type PlanTerms, type QuotaTerms, termsByQuota } from "./terms.js";
import type { BucketEntry, BucketInput, PlanLineExplanation, PlanLineResult } from "./types.js";

export { type PlanTerms, termsOf } from "./terms.js";

/** Rule 4 for one line: graduated slices of [prior, prior + credit), × multiplier, rounded, minimum. */
export function priceLine(terms: PlanTerms, entry: BucketEntry, prior: Fixed): PricedLine {
  const { scale } = terms;
  const credit = creditIn(entry, scale);
  const slices = sliceBands(terms.bands, prior, credit);
  const multiplier = multiplierFor(terms, entry.deal.deal_type);
  const unrounded = times(bandsTotal(slices), multiplier.value);
  const arr = parse(entry.deal.arr_amount);
  const below = terms.minimum !== null && lt(scale === null ? arr : convertScaled(arr, entry.fx, scale), terms.minimum);
  const minDeal = below ? terms.minimum : null;
  const places = minorUnits(terms.plan.currency);
  const rounded = minDeal !== null ? ZERO : roundLine(unrounded, terms.plan.currency, scale);
  const converted = entry.fx ? { rate: entry.fx, credit: parse(entry.credit) } : null;
  return {
    deal: entry.deal,
    credit,
    prior,
    slices,
    multiplier,
    unrounded,
    rounded,
    minDeal,
    places,
    scale,
    fx: converted,
  };
}

/** An entry's credit in the plan's currency, in units of 1/scale when the bucket converts (§15). */
function creditIn(entry: BucketEntry, scale: bigint | null): Fixed {
  return scale === null ? parse(entry.credit) : convertScaled(parse(entry.credit), entry.fx, scale);
}

/** §15: null when no entry is converted, else the lcm of the entries' rate denominators (one scale for the bucket). */
function fxScale(entries: BucketEntry[]): bigint | null {
  let scale: bigint | null = null;
  for (const e of entries) if (e.fx) scale = lcm(scale ?? 1n, e.fx.den);
  return scale;
}

/** Rule 5: take min(own rounded amount, cap − used), never below 0.00. */
export function applyCap(rounded: Fixed, limit: CapLimit | null, used: Fixed): CappedLine {
  if (limit === null) return { amount: rounded, limit: null, used, applied: false };
  const room = minus(limit.value, used);
  const applied = gt(rounded, room);
  return { amount: applied ? max(room, ZERO) : rounded, limit, used, applied };
}

/**
 * What a bucket's lines need to write their explanations later: the entries in order, their terms, and
 * per entry the attainment and cap use before it (scaled integers, or Fixed values when the bucket was
 * priced by money/fixed.ts). A line's explanation is its pricing redone from these (all immutable).
 */
class BucketRun {
  constructor(
    readonly ordered: BucketEntry[],
    readonly terms: QuotaTerms[],
    readonly limit: CapLimit | null,
    readonly scaled: ScaledBucket | null,
    readonly priors: Fixed[] | null,
    readonly used: Fixed[] | null,
  ) {}

  explain(k: number): PlanLineExplanation {
    const { terms, ctx } = this.terms[k]!;
    const s = this.scaled;
    const prior = s === null ? this.priors![k]! : fx(s.priors[k]!, s.scale);
    const used = s === null ? this.used![k]! : fx(s.usedBefore[k]!, 2);
    const priced = priceLine(terms, this.ordered[k]!, prior);
    return planExplanation(ctx, priced, applyCap(priced.rounded, this.limit, used));
  }
}

/**
 * A plan line whose explanation is written on its first read: most computed lines are only compared by
 * amount or summed, and writing every explanation was most of the engine's time (bench/README.md).
 * `explanation` is an own enumerable accessor (one shared getter, so every line keeps one shape), so
 * spreading, JSON.stringify and deep equality see it as they did; the first read replaces it with the
 * value. The bucket's run and the entry's place in it sit in private fields, which none of those see.
 */
class PlanLine {
  readonly deal_id: string;
  readonly user_id: string;
  readonly plan_id: string;
  readonly plan_version: number;
  readonly period: string;
  readonly kind = "plan" as const;
  readonly amount: string;
  /** The plan's (API.md §15). */
  readonly currency: string;
  declare readonly explanation: PlanLineExplanation;
  readonly #run: BucketRun;
  readonly #k: number;

  constructor(userId: string, ctx: LineContext, dealId: string, amount: string, run: BucketRun, k: number) {
    this.deal_id = dealId;
    this.user_id = userId;
    this.plan_id = ctx.plan.id;
    this.plan_version = ctx.plan.version;
    this.period = ctx.period;
    this.amount = amount;
    this.currency = ctx.plan.currency;
    this.#run = run;
    this.#k = k;
    Object.defineProperty(this, "explanation", LAZY_EXPLANATION);
  }

  static explain(line: PlanLine): PlanLineExplanation {
    const value = line.#run.explain(line.#k);
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

/** The bucket priced with money/fixed.ts values: any size, any scale. */
function priceFixed(
  ordered: BucketEntry[],
  termsOf: (entry: BucketEntry) => QuotaTerms,
  limit: CapLimit | null,
  scale: bigint | null,
): { terms: QuotaTerms[]; amounts: Fixed[]; priors: Fixed[]; used: Fixed[] } {
  const n = ordered.length;
  const terms: QuotaTerms[] = new Array(n);
  const amounts: Fixed[] = new Array(n);
  const priors: Fixed[] = new Array(n);
  const usedBefore: Fixed[] = new Array(n);
  let used = ZERO;
  for (const e of ordered) if (e.locked) used = plus(used, parse(e.lockedAmount ?? 0));
  let prior = ZERO;
  for (let k = 0; k < n; k++) {
    const entry = ordered[k]!;
    priors[k] = prior;
    usedBefore[k] = used;
    if (entry.locked) {
      prior = plus(prior, creditIn(entry, scale));
      continue;
    }
    terms[k] = termsOf(entry);
    const priced = priceLine(terms[k]!.terms, entry, prior);
    const capped = applyCap(priced.rounded, limit, used);
    amounts[k] = capped.amount;
    used = plus(used, capped.amount);
    prior = plus(prior, priced.credit);
  }
  return { terms, amounts, priors, used: usedBefore };
}

/**
 * Plan lines of one (user, plan, period) bucket, for its unlocked entries, in deal order.
 * Every entry's credit counts toward the attainment of later ones; locked amounts use the cap first.
 * Each entry is priced with its own quota (the assignment in force on its close_date, rule 4).
 * Amounts come from scaled Numbers (engine/scaled.ts) when the bucket fits them, else from money/fixed.ts;
 * a bucket holding converted credits (§15) is priced by money/fixed.ts in units of 1/scale (terms.ts).
 */
export function calculateBucket(input: BucketInput): PlanLineResult[] {
  const { plan, period, userId } = input;
  const scale = fxScale(input.entries);
  const termsFor = termsByQuota(plan, period, scale);
  const termsOf = (entry: BucketEntry): QuotaTerms => termsFor(entry.quota === undefined ? input.quota : entry.quota);
  const cap = plan.cap_per_period === null ? null : parse(plan.cap_per_period);
  const limit = cap === null ? null : { value: cap, text: plain(cap) };
  const keys = keysOf(input.entries);
  const order = dealOrder(input.entries, keys);
  const ordered: BucketEntry[] = new Array(order.length);
  for (let k = 0; k < order.length; k++) ordered[k] = input.entries[order[k]!]!;
  const lines: PlanLineResult[] = [];
  // The scaled path counts in cents, unconverted: other minor units and converted buckets are priced by fixed.ts.
  const places = minorUnits(plan.currency);
  const scaled = scale === null && places === 2 ? priceScaled(ordered, order, keys, termsOf, cap) : null;
  if (scaled !== null) {
    const run = new BucketRun(ordered, scaled.terms, limit, scaled.bucket, null, null);
    const amounts = scaled.bucket.amounts;
    for (let k = 0; k < ordered.length; k++) {
      const entry = ordered[k]!;
      if (entry.locked) continue;
      lines.push(new PlanLine(userId, scaled.terms[k]!.ctx, entry.deal.id, centsText(amounts[k]!), run, k));
    }
    return lines;
  }
  const priced = priceFixed(ordered, termsOf, limit, scale);
  const run = new BucketRun(ordered, priced.terms, limit, null, priced.priors, priced.used);
  for (let k = 0; k < ordered.length; k++) {
    const entry = ordered[k]!;
    if (entry.locked) continue;
    lines.push(
      new PlanLine(userId, priced.terms[k]!.ctx, entry.deal.id, fixedText(priced.amounts[k]!, places), run, k),
    );
  }
  return lines;
}
