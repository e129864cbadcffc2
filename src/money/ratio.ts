// Exact fractions for currency conversion (API.md §15): a converted amount is credit × num/den, never
// rounded, so a value is a scaled integer over a denominator. Written as a plain decimal when its
// expansion terminates, else "n/d" in lowest terms.
import { type Fixed, fx, norm, quotient } from "./fixed.js";
import { parse, plain } from "./text.js";

export function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

export const lcm = (a: bigint, b: bigint): bigint => (a / gcd(a, b)) * b;

/** The exact text of value / den (den > 0): "1867091.229615", or "25175/23" when it does not terminate. */
export function ratioText(value: Fixed, den: bigint): string {
  let n = BigInt(value.c);
  let d = den * 10n ** BigInt(value.s);
  const g = gcd(n, d);
  if (g > 1n) {
    n /= g;
    d /= g;
  }
  let rest = d;
  let twos = 0;
  let fives = 0;
  while (rest % 2n === 0n) {
    rest /= 2n;
    twos++;
  }
  while (rest % 5n === 0n) {
    rest /= 5n;
    fives++;
  }
  if (rest !== 1n) return `${n}/${d}`;
  const k = Math.max(twos, fives);
  return plain(fx(norm((n * 10n ** BigInt(k)) / d), k));
}

/** An exact value as explanations write it ("1094.5", or "25175/23" when it does not terminate). */
export interface Ratio {
  num: bigint;
  den: bigint;
}

export function parseRatio(text: string | number): Ratio {
  const [n, d] = String(text).split("/");
  if (d !== undefined) return { num: BigInt(n!), den: BigInt(d) };
  const value = parse(n!);
  return { num: BigInt(value.c), den: 10n ** BigInt(value.s) };
}

/** a + b, exact, in lowest terms. */
export function addRatios(a: Ratio, b: Ratio): Ratio {
  const num = a.num * b.den + b.num * a.den;
  const den = a.den * b.den;
  const g = gcd(num, den) || 1n;
  return { num: num / g, den: den / g };
}

/** The ratio as a decimal rounded to `places` (exact whenever it terminates within them). */
export const ratioFixed = (r: Ratio, places: number): Fixed => quotient(fx(norm(r.num)), fx(norm(r.den)), places);
