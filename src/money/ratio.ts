// Exact fractions for currency conversion (API.md §15): a converted amount is credit × num/den, never
// rounded, so a value is a scaled integer over a denominator. Written as a plain decimal when its
// expansion terminates, else "n/d" in lowest terms.
import { type Fixed, fx, norm } from "./fixed.js";
import { plain } from "./text.js";

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
