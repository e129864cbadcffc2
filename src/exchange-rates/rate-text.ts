// Rates as the API takes and stores them: plain decimal strings, exact, read as BigInt fractions.

/** Digits only: ≤ 12 before the point, ≤ 10 after it; no sign, exponent or spaces. */
export const RATE_SHAPE = /^\d{1,12}(\.\d{1,10})?$/;

/** One spelling per value: no leading zeros before the units, no trailing zeros after the point ("0.920" → "0.92"). */
export function normalizeRate(text: string): string {
  const [whole = "", part = ""] = text.split(".");
  const units = whole.replace(/^0+(?=\d)/, "");
  const decimals = part.replace(/0+$/, "");
  return decimals === "" ? units : `${units}.${decimals}`;
}

/** What is wrong with a rate's text, or null when it is a usable rate. */
export function rateProblem(text: string): string | null {
  if (!RATE_SHAPE.test(text)) {
    return 'must be a decimal string of digits, at most 12 before the point and 10 after it, such as "0.92"';
  }
  return /[1-9]/.test(text) ? null : "must be greater than 0";
}

/** An exact positive fraction, always in lowest terms. */
export interface Fraction {
  num: bigint;
  den: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export function fraction(num: bigint, den: bigint): Fraction {
  const g = gcd(num, den);
  return { num: num / g, den: den / g };
}

/** A decimal string as an exact fraction ("0.92" → 23/25). */
export function fractionOf(text: string): Fraction {
  const [whole = "0", part = ""] = text.split(".");
  return fraction(BigInt(whole + part), 10n ** BigInt(part.length));
}

export const divide = (a: Fraction, b: Fraction): Fraction => fraction(a.num * b.den, a.den * b.num);

/** "25/23"; a whole number without its "/1" ("151"). */
export const fractionText = (f: Fraction): string => (f.den === 1n ? `${f.num}` : `${f.num}/${f.den}`);
