/**
 * The console's only money arithmetic: sums and differences of amounts the API gave (JSON numbers with
 * at most 2 decimals, API.md §2), done in whole cents so that no binary fraction leaks into a total.
 * Everything else a page shows — rates, tiers, commissions — the API computed.
 */

/** 1234.5 → 123450. Exact for every amount the API sends (|amount| < 2^53 / 100). */
function cents(amount: number): number {
  return Math.round(amount * 100);
}

/** The exact sum of API amounts: sumMoney([0.1, 0.2]) is 0.3, not 0.30000000000000004. */
export function sumMoney(amounts: Iterable<number>): number {
  let total = 0;
  for (const amount of amounts) total += cents(amount);
  return total / 100;
}

/** a − b, exactly: what a new amount changes an old one by (a dispute's adjustment, say). */
export function differenceOfMoney(a: number, b: number): number {
  return (cents(a) - cents(b)) / 100;
}

/** Amounts summed exactly per currency, in the order the currencies first appear. */
export function totalsByCurrency(items: Iterable<{ currency: string; amount: number }>): [string, number][] {
  const byCurrency = new Map<string, number[]>();
  for (const { currency, amount } of items) byCurrency.set(currency, [...(byCurrency.get(currency) ?? []), amount]);
  return [...byCurrency].map(([currency, amounts]) => [currency, sumMoney(amounts)]);
}

/** The decimal places of a number as typed or held ("1.5e-7" has 8): what a form checks before the API does. */
export function decimalPlaces(value: number | string): number {
  const [mantissa = "", exponent = "0"] = String(value).toLowerCase().split("e");
  return Math.max(0, (mantissa.split(".")[1] ?? "").length - Number(exponent));
}

// Rates and attainments as a person types them (percent) and as the API takes them (ratios): the
// decimal point moves in the text, so 13 % is exactly 0.13 and 0.13 is exactly 13 %, never a product
// of binary fractions (13 / 100 is 0.13, but 0.07 * 100 is 7.000000000000001).

const PLAIN = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** The digits of a plain decimal (no exponent) moved `places` to the left of its point, as text. */
function shifted(sign: string, whole: string, fraction: string, places: number): string {
  const digits = whole + fraction;
  const point = whole.length - places;
  const padded = point < 0 ? "0".repeat(-point) + digits : digits.padEnd(point, "0");
  const at = Math.max(point, 0);
  const int = padded.slice(0, at).replace(/^0+/, "") || "0";
  const frac = padded.slice(at).replace(/0+$/, "");
  const text = frac ? `${int}.${frac}` : int;
  return sign === "-" && /[1-9]/.test(text) ? `-${text}` : text;
}

/** A decimal as typed ("12.50", ".5", "013", " 7 ") in one spelling ("12.5", "0.5", "13", "7"); null when it is not one. */
export function plainDecimal(text: string): string | null {
  const match = PLAIN.exec(text.trim());
  if (!match || (match[2] === "" && (match[3] ?? "") === "")) return null;
  return shifted(match[1]!, match[2]!, match[3] ?? "", 0);
}

/** A percent as typed → the ratio the API takes, exactly: "13" → "0.13", "150" → "1.5"; null when not a decimal. */
export function percentToRatio(percent: string): string | null {
  const match = PLAIN.exec(percent.trim());
  if (!match || (match[2] === "" && (match[3] ?? "") === "")) return null;
  return shifted(match[1]!, match[2]!, match[3] ?? "", 2);
}

/** A ratio the API gave → the percent a person reads and types, exactly: 0.13 → "13", 1.5 → "150", 1e-7 → "0.00001". */
export function ratioToPercent(ratio: number | string): string {
  const [mantissa = "", exponent = "0"] = String(ratio).trim().toLowerCase().split("e");
  const match = PLAIN.exec(mantissa);
  if (!match) return String(ratio);
  return shifted(match[1]!, match[2]!, match[3] ?? "", -2 - Number(exponent));
}

/** a < b: −1, equal: 0, a > b: 1, for plain decimals compared digit by digit (no float rounding). */
export function compareDecimals(a: string, b: string): number {
  const scaled = (text: string, places: number) => {
    const [, sign = "", whole = "", fraction = ""] = PLAIN.exec(text.trim()) ?? [];
    const value = BigInt((whole || "0") + fraction.padEnd(places, "0"));
    return sign === "-" ? -value : value;
  };
  const places = Math.max(...[a, b].map((t) => (t.split(".")[1] ?? "").length));
  const [x, y] = [scaled(a, places), scaled(b, places)];
  return x < y ? -1 : x > y ? 1 : 0;
}
