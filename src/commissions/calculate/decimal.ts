import { Decimal } from "decimal.js";

// A private clone: the global Decimal config stays untouched. 40 significant digits hold
// arr (2 dp) × percent (4 dp) × rate (6 dp) × multiplier (6 dp) exactly for any realistic amount.
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -9e15, toExpPos: 9e15 });
export type Dec = Decimal;

export const ZERO = new Dec(0);

/** Round to the cent, half away from zero; never returns negative zero. */
export function roundCents(value: Decimal.Value): Dec {
  const rounded = new Dec(value).toDecimalPlaces(2, Dec.ROUND_HALF_UP);
  return rounded.isZero() ? ZERO : rounded;
}

/** "1234.50": a money amount with exactly two decimals, rounded half away from zero. */
export function toCents(value: Decimal.Value): string {
  return roundCents(value).toFixed(2);
}

/** Exact plain notation, never an exponent: "30000", "3333.3333", "0.00000001". */
export function plain(value: Decimal.Value): string {
  const d = new Dec(value);
  return d.isZero() ? "0" : d.toFixed();
}

/** "10,000.00", "3,333.3333": thousands separators, at least two decimals, full precision beyond. */
export function formatMoney(value: Decimal.Value): string {
  const d = new Dec(value);
  const text = d.decimalPlaces() <= 2 ? d.toFixed(2) : d.toFixed();
  const negative = text.startsWith("-");
  const [intPart = "0", fraction = ""] = (negative ? text.slice(1) : text).split(".");
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative && !d.isZero() ? "-" : ""}${grouped}.${fraction}`;
}

/** A rate as a percent: 0.1 → "10%", 0.125 → "12.5%". */
export function formatPercent(rate: Decimal.Value): string {
  return `${plain(new Dec(rate).times(100))}%`;
}

/** The rounded amount as a JSON number (4000, 1234.5); safe because it has at most two decimals. */
export function amountNumber(rounded: Dec): number {
  return Number(rounded.toFixed(2));
}
