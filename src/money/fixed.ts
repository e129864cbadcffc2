// The server's money number: an exact decimal as a scaled integer, value = c × 10^-s with s ≥ 0. `c` is a
// Number while it is a safe integer and a BigInt beyond (canonical: never a BigInt inside the safe range),
// so every result is exact at any magnitude and usual amounts never leave plain integer arithmetic.
// The engine only adds, subtracts, multiplies, divides by 100 and rounds to a minor unit: all exact here;
// `quotient` (a ratio rounded to a number of places) serves the statement's attainment ratio.
// Reading and writing decimal text is text.ts; index.ts is what the rest of the server imports.

export type Int = number | bigint;

export interface Fixed {
  readonly c: Int;
  readonly s: number;
}

export const MAX = Number.MAX_SAFE_INTEGER;
const BIG_MAX = BigInt(MAX);
// 10^k for k ≤ 15 as exact doubles (parsed, not computed: `Number("1e15")` is correctly rounded).
export const POW10 = Array.from({ length: 16 }, (_, k) => Number(`1e${k}`));
const BIG_POW10 = Array.from({ length: 40 }, (_, k) => 10n ** BigInt(k));

const bigPow10 = (k: number): bigint => BIG_POW10[k] ?? 10n ** BigInt(k);

/** The canonical form of an integer: a Number when it is safe. */
export function norm(c: bigint): Int {
  return c <= BIG_MAX && c >= -BIG_MAX ? Number(c) : c;
}

// For integer operands a double result within ±MAX is exact; a true result beyond ±MAX rounds to a
// double beyond ±MAX (rounding is monotone), so this one check tells exact from inexact.
function addInt(a: Int, b: Int): Int {
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if (r <= MAX && r >= -MAX) return r;
  }
  return norm(BigInt(a) + BigInt(b));
}

function subInt(a: Int, b: Int): Int {
  if (typeof a === "number" && typeof b === "number") {
    const r = a - b;
    if (r <= MAX && r >= -MAX) return r === 0 ? 0 : r; // never -0
  }
  return norm(BigInt(a) - BigInt(b));
}

function mulInt(a: Int, b: Int): Int {
  if (typeof a === "number" && typeof b === "number") {
    const r = a * b;
    if (r <= MAX && r >= -MAX) return r === 0 ? 0 : r;
  }
  return norm(BigInt(a) * BigInt(b));
}

/** c × 10^k, k ≥ 0. */
export function shift(c: Int, k: number): Int {
  if (k === 0) return c;
  return k < POW10.length ? mulInt(c, POW10[k]!) : norm(BigInt(c) * bigPow10(k));
}

export function neg(c: Int): Int {
  return typeof c === "number" ? (c === 0 ? 0 : -c) : norm(-c);
}

export const fx = (c: Int, s = 0): Fixed => ({ c, s });
export const ZERO: Fixed = fx(0);
export const ONE: Fixed = fx(1);

// ---- arithmetic ----

export function plus(a: Fixed, b: Fixed): Fixed {
  if (b.c === 0) return a;
  if (a.c === 0) return b;
  if (a.s === b.s) return fx(addInt(a.c, b.c), a.s);
  return a.s > b.s ? fx(addInt(a.c, shift(b.c, a.s - b.s)), a.s) : fx(addInt(shift(a.c, b.s - a.s), b.c), b.s);
}

export function minus(a: Fixed, b: Fixed): Fixed {
  if (b.c === 0) return a;
  if (a.s === b.s) return fx(subInt(a.c, b.c), a.s);
  return a.s > b.s ? fx(subInt(a.c, shift(b.c, a.s - b.s)), a.s) : fx(subInt(shift(a.c, b.s - a.s), b.c), b.s);
}

export function times(a: Fixed, b: Fixed): Fixed {
  const c = mulInt(a.c, b.c);
  return c === 0 ? ZERO : fx(c, a.s + b.s);
}

/** a / 10^k, exact. */
export const divPow10 = (a: Fixed, k: number): Fixed => (a.c === 0 ? ZERO : fx(a.c, a.s + k));

/** a × 100: a rate as a percent. */
export const times100 = (a: Fixed): Fixed => (a.s >= 2 ? fx(a.c, a.s - 2) : fx(shift(a.c, 2 - a.s), 0));

/** -1, 0 or 1 (Numbers and BigInts compare exactly with each other). */
export function cmp(a: Fixed, b: Fixed): number {
  const x = a.s >= b.s ? a.c : shift(a.c, b.s - a.s);
  const y = b.s >= a.s ? b.c : shift(b.c, a.s - b.s);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const sign = (a: Fixed): number => (a.c > 0 ? 1 : a.c < 0 ? -1 : 0);
export const gt = (a: Fixed, b: Fixed): boolean => cmp(a, b) > 0;
export const lt = (a: Fixed, b: Fixed): boolean => cmp(a, b) < 0;
export const eq = (a: Fixed, b: Fixed): boolean => cmp(a, b) === 0;
export const min = (a: Fixed, b: Fixed): Fixed => (cmp(a, b) <= 0 ? a : b);
export const max = (a: Fixed, b: Fixed): Fixed => (cmp(a, b) >= 0 ? a : b);

/** Rounded half away from zero to `places` decimals, at scale `places`; never negative zero. */
export function roundTo(a: Fixed, places: number): Fixed {
  if (a.s <= places) return fx(shift(a.c, places - a.s), places);
  const k = a.s - places;
  if (typeof a.c === "number" && k < POW10.length) {
    // % and the division of the exact multiple are exact on doubles holding safe integers.
    const d = POW10[k]!;
    const r = a.c % d;
    const q = (a.c - r) / d;
    const c = q + (r + r >= d ? 1 : r + r <= -d ? -1 : 0);
    return fx(c === 0 ? 0 : c, places);
  }
  const d = bigPow10(k);
  const big = BigInt(a.c);
  const r = big % d;
  const q = (big - r) / d;
  return fx(norm(q + (r + r >= d ? 1n : r + r <= -d ? -1n : 0n)), places);
}

/** Rounded to the cent (roundTo 2): amounts whose currency has 2 decimals, and ratios shown as percents. */
export const roundCents = (a: Fixed): Fixed => roundTo(a, 2);

/** Truncated toward zero to `places` decimals, at that scale (a cap never above its exact value). */
export function truncTo(a: Fixed, places: number): Fixed {
  if (a.s <= places) return fx(shift(a.c, places - a.s), places);
  return fx(norm(BigInt(a.c) / bigPow10(a.s - places)), places);
}

/** Rounded up, away from zero, to `places` decimals (a target that closing that much reaches). */
export function roundUpTo(a: Fixed, places: number): Fixed {
  if (a.s <= places) return fx(shift(a.c, places - a.s), places);
  const d = bigPow10(a.s - places);
  const big = BigInt(a.c);
  const q = big / d;
  return fx(norm(big % d === 0n ? q : big < 0n ? q - 1n : q + 1n), places);
}

export const truncCents = (a: Fixed): Fixed => truncTo(a, 2);
export const roundCentsUp = (a: Fixed): Fixed => roundUpTo(a, 2);

/** a / b rounded half away from zero to `places` decimals, exact (one integer division); b ≠ 0. */
export function quotient(a: Fixed, b: Fixed, places: number): Fixed {
  if (b.c === 0) throw new RangeError("division by zero");
  const k = b.s - a.s + places;
  let n = k >= 0 ? BigInt(a.c) * bigPow10(k) : BigInt(a.c);
  let d = k >= 0 ? BigInt(b.c) : BigInt(b.c) * bigPow10(-k);
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d; // truncated toward zero; the remainder has the sign of n
  const r = n % d;
  const twice = r < 0n ? -2n * r : 2n * r;
  return fx(norm(twice >= d ? (n < 0n ? q - 1n : q + 1n) : q), places);
}
