// A bucket's amounts in plain Number arithmetic, exact: every value a safe integer at a scale fixed for
// the whole bucket (attainment × 10^A, rates × 10^R, cents), checked before each product, so no line
// allocates or parses money twice. Anything it cannot hold exactly (BigInt sizes, negative credits or
// rates, more than 15 decimals) makes it answer null and the bucket is priced by fixed.ts instead; both
// give the same amounts to the cent (test/commissions/*.property.test.ts).

import { type Fixed, lt, POW10, parse, parseInto, scratch } from "../../money/index.js";
import type { EntryKeys } from "./keys.js";
import { multiplierFor, type QuotaTerms } from "./terms.js";
import type { BucketEntry } from "./types.js";

const MAX = Number.MAX_SAFE_INTEGER;
// Products are checked in doubles, which are within a relative 2^-52 per operation of the exact value:
// below 2^52 the exact product is below 2^53.
const PRODUCT_LIMIT = 2 ** 52;

/** One terms' band rates as integers at a common scale (what does not depend on the bucket's credits). */
export interface ScaledRates {
  rates: Float64Array;
  rateScale: number;
  /** Σ rates: a line's commission is at most credit × this (bands may overlap when tiers are out of order). */
  rateSum: number;
  /** The largest scale of any band bound (quota × from_attainment). */
  boundScale: number;
  /** The bounds at attainment scale `at` (Infinity: open, or beyond any safe attainment). */
  from: Float64Array;
  to: Float64Array;
  at: number;
}

/** A priced bucket: per ordered entry, attainment before it (× 10^scale), cap used before it and its amount (cents). */
export interface ScaledBucket {
  scale: number;
  priors: Float64Array;
  usedBefore: Float64Array;
  amounts: Float64Array;
}

/** f × 10^(at − f.s) as a Number; ±Infinity when that is no safe integer. */
function atScale(f: Fixed, at: number): number {
  const v = typeof f.c === "number" ? f.c * POW10[at - f.s]! : Number.NaN;
  if (v <= MAX && v >= -MAX) return v;
  return f.c > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
}

function ratesOf(qt: QuotaTerms): ScaledRates | null {
  const bands = qt.terms.bands;
  let rateScale = 0;
  let boundScale = 0;
  for (const b of bands) {
    if (typeof b.rate.c !== "number" || b.rate.c < 0 || b.rate.s > 15) return null;
    if (b.rate.s > rateScale) rateScale = b.rate.s;
    if (b.from.s > boundScale) boundScale = b.from.s;
    if (b.to !== null && b.to.s > boundScale) boundScale = b.to.s;
  }
  const rates = new Float64Array(bands.length);
  let rateSum = 0;
  for (let i = 0; i < bands.length; i++) {
    rates[i] = atScale(bands[i]!.rate, rateScale);
    rateSum += rates[i]!;
  }
  if (!(rateSum <= MAX)) return null;
  const from = new Float64Array(bands.length);
  const to = new Float64Array(bands.length);
  return { rates, rateScale, rateSum, boundScale, from, to, at: -1 };
}

/** The bounds of `r`'s bands at attainment scale `at`. */
function placeBounds(qt: QuotaTerms, r: ScaledRates, at: number): void {
  if (r.at === at) return;
  const bands = qt.terms.bands;
  for (let i = 0; i < bands.length; i++) {
    const b = bands[i]!;
    // A bound beyond any safe attainment is never reached by this bucket (its attainment is checked safe).
    r.from[i] = atScale(b.from, at);
    r.to[i] = b.to === null ? Number.POSITIVE_INFINITY : atScale(b.to, at);
  }
  r.at = at;
}

/** arr_amount (c × 10^-s; s −1: only its text) < minimum, exactly. */
function below(c: number, s: number, text: string, minimum: Fixed): boolean {
  if (s >= 0 && typeof minimum.c === "number") {
    const scale = s > minimum.s ? s : minimum.s;
    const a = c * POW10[scale - s]!;
    const b = minimum.c * POW10[scale - minimum.s]!;
    if (Math.abs(a) <= MAX && Math.abs(b) <= MAX) return a < b;
  }
  return lt(parse(text), minimum);
}

/** Round half up a non-negative safe integer u × 10^-k to cents: u × 10^-(k − 2) rounded; NaN when not exact. */
function toCents(u: number, k: number): number {
  const shift = k - 2;
  if (shift <= 0) {
    if (shift < -15) return Number.NaN;
    const v = u * POW10[-shift]!;
    return v <= MAX ? v : Number.NaN;
  }
  if (shift > 15) return Number.NaN;
  const d = POW10[shift]!;
  const r = u % d;
  const q = (u - r) / d;
  return r + r >= d ? q + 1 : q;
}

/**
 * The bucket's amounts (rule 4: graduated slices × multiplier, rounded; the minimum; rule 5: the cap after
 * locked amounts), or null when some value would not be a safe integer. `termsOf` gives an unlocked
 * entry's terms; `capCents` is the cap, null without one.
 */
export function priceScaled(
  ordered: BucketEntry[],
  order: Int32Array,
  keys: EntryKeys,
  termsOf: (entry: BucketEntry) => QuotaTerms,
  cap: Fixed | null,
): { bucket: ScaledBucket; terms: QuotaTerms[] } | null {
  const n = ordered.length;
  let capCents = 0;
  if (cap !== null) {
    if (typeof cap.c !== "number" || cap.s > 2) return null;
    capCents = cap.c * POW10[2 - cap.s]!;
    if (Math.abs(capCents) > MAX) return null;
  }
  const credits = new Float64Array(n);
  const scales = new Uint8Array(n);
  const entryTerms: QuotaTerms[] = new Array(n);
  const entryRates: ScaledRates[] = new Array(n);
  const ratesByTerms = new Map<QuotaTerms, ScaledRates | null>();
  let lastTerms: QuotaTerms | null = null;
  let lastRates: ScaledRates | null = null;
  let scale = 0;
  let locked = 0;
  for (let k = 0; k < n; k++) {
    const entry = ordered[k]!;
    const at = order[k]!;
    credits[k] = keys.credit[at]!;
    scales[k] = keys.creditScale[at]!;
    if (scales[k]! > scale) scale = scales[k]!;
    if (keys.creditScale[at]! < 0 || credits[k]! < 0) return null;
    if (entry.locked) {
      if (!parseInto(entry.lockedAmount ?? "0") || scratch.s > 2) return null;
      locked += scratch.c * POW10[2 - scratch.s]!;
      continue;
    }
    const qt = termsOf(entry);
    if (qt !== lastTerms) {
      let rates = ratesByTerms.get(qt);
      if (rates === undefined) {
        rates = ratesOf(qt);
        ratesByTerms.set(qt, rates);
      }
      if (rates === null) return null;
      lastTerms = qt;
      lastRates = rates;
    }
    entryTerms[k] = qt;
    entryRates[k] = lastRates!;
    if (lastRates!.boundScale > scale) scale = lastRates!.boundScale;
  }
  if (scale > 15 || Math.abs(locked) > MAX) return null;
  let total = 0;
  for (let k = 0; k < n; k++) {
    credits[k] = credits[k]! * POW10[scale - scales[k]!]!;
    total += credits[k]!;
  }
  if (total > MAX) return null;

  const priors = new Float64Array(n);
  const usedBefore = new Float64Array(n);
  const amounts = new Float64Array(n);
  let prior = 0;
  let used = locked;
  for (let k = 0; k < n; k++) {
    const entry = ordered[k]!;
    const credit = credits[k]!;
    priors[k] = prior;
    usedBefore[k] = used;
    if (entry.locked) {
      prior += credit;
      continue;
    }
    const qt = entryTerms[k]!;
    const r = entryRates[k]!;
    placeBounds(qt, r, scale);
    const m = multiplierFor(qt.terms, entry.deal.deal_type).value;
    if (typeof m.c !== "number" || m.c < 0 || credit * r.rateSum * m.c > PRODUCT_LIMIT) return null;
    const end = prior + credit;
    let commission = 0;
    for (let b = 0; b < r.rates.length; b++) {
      const from = r.from[b]!;
      const to = r.to[b]!;
      const slice = (end < to ? end : to) - (prior > from ? prior : from);
      if (slice > 0) commission += slice * r.rates[b]!;
    }
    const minimum = qt.terms.minimum;
    const rounded =
      minimum !== null && below(keys.arr[order[k]!]!, keys.arrScale[order[k]!]!, entry.deal.arr_amount, minimum)
        ? 0
        : toCents(commission * m.c, scale + r.rateScale + m.s);
    if (Number.isNaN(rounded)) return null;
    let amount = rounded;
    if (cap !== null) {
      const room = capCents - used;
      if (rounded > room) amount = room > 0 ? room : 0;
    }
    amounts[k] = amount;
    used += amount;
    if (Math.abs(used) > MAX) return null;
    prior = end;
  }
  return { bucket: { scale, priors, usedBefore, amounts }, terms: entryTerms };
}
