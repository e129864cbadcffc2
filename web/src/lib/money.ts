/**
 * The console's only money arithmetic: sums and differences of amounts the API gave (JSON numbers with
 * at most their currency's minor-unit decimals, 3 at most, API.md §15), done in whole thousandths so that
 * no binary fraction leaks into a total. Everything else a page shows — rates, tiers, commissions — the
 * API computed.
 */

// ISO 4217 minor units (API.md §15), as the server has them.
const NO_DECIMALS = new Set("BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF".split(" "));
const THREE_DECIMALS = new Set("BHD IQD JOD KWD LYD OMR TND".split(" "));

/** The decimals of a currency's minor unit: 0 (JPY), 3 (KWD) or 2 (most). */
export function minorUnits(currency: string): number {
  const code = currency.trim().toUpperCase();
  return NO_DECIMALS.has(code) ? 0 : THREE_DECIMALS.has(code) ? 3 : 2;
}

/** What a form says when an amount has more decimals than its currency: the API's 422, in words. */
export function minorUnitsProblem(noun: string, currency: string): string {
  const code = currency.trim().toUpperCase() || "USD";
  const places = minorUnits(code);
  if (places === 0) return `Give ${noun} in whole ${code} (no decimals).`;
  return `Give ${noun} with at most ${places} decimals (${code}).`;
}

/** Whether an amount as typed has more decimals than its currency allows. */
export const tooManyDecimals = (value: number | string, currency: string): boolean =>
  decimalPlaces(value) > minorUnits(currency);

/** 1234.5 → 1234500. Exact for every amount the API sends (|amount| < 2^53 / 1000). */
function thousandths(amount: number): number {
  return Math.round(amount * 1000);
}

/** The exact sum of API amounts: sumMoney([0.1, 0.2]) is 0.3, not 0.30000000000000004. */
export function sumMoney(amounts: Iterable<number>): number {
  let total = 0;
  for (const amount of amounts) total += thousandths(amount);
  return total / 1000;
}

/** a − b, exactly: what a new amount changes an old one by (a dispute's adjustment, say). */
export function differenceOfMoney(a: number, b: number): number {
  return (thousandths(a) - thousandths(b)) / 1000;
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

/** An exact decimal the API gave ("1234.5678", "-3") or an explanation's fraction ("25175/23") as n / d, d > 0. */
function exactRatio(text: string): [bigint, bigint] {
  const [top = "0", bottom] = text.trim().split("/");
  const [, sign = "", whole = "", fraction = ""] = PLAIN.exec(top.trim()) ?? [];
  const n = BigInt(sign + ((whole || "0") + fraction));
  const d = 10n ** BigInt(fraction.length);
  return bottom === undefined ? [n, d] : [n, d * BigInt(bottom.trim())];
}

/** The exact sum of decimals the API gave, as a plain decimal: sumDecimals(["0.1", "0.25"]) is "0.35". */
export function sumDecimals(values: Iterable<string>): string {
  const all = [...values].map((v) => plainDecimal(v) ?? "0");
  const places = Math.max(0, ...all.map((v) => (v.split(".")[1] ?? "").length));
  let total = 0n;
  for (const value of all) {
    const [n, d] = exactRatio(value);
    total += (n * 10n ** BigInt(places)) / d;
  }
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(places + 1, "0");
  const whole = digits.slice(0, digits.length - places);
  return shifted(negative ? "-" : "", whole, digits.slice(digits.length - places), 0);
}

/**
 * An amount the API gave split in proportion to `weights` (exact decimals or "n/d" fractions, ≥ 0), to
 * the currency's minor unit, the parts summing to it exactly: each part its share rounded down to the
 * minor unit, then the units left over one each to the largest remainders (the earlier on a tie).
 * Weights all 0: equal parts.
 */
export function apportionMoney(amount: number, weights: readonly string[], currency: string): number[] {
  if (weights.length === 0) return [];
  const unit = 10 ** minorUnits(currency);
  const total = BigInt(Math.round(amount * unit));
  const magnitude = total < 0n ? -total : total;
  const ratios = weights.map(exactRatio);
  // Every weight over one common denominator: its numerator alone is its share.
  const common = ratios.reduce((acc, [, d]) => (acc % d === 0n ? acc : acc * d), 1n);
  let scaled = ratios.map(([n, d]) => (n * common) / d);
  let sum = scaled.reduce((a, b) => a + b, 0n);
  if (sum === 0n) {
    scaled = scaled.map(() => 1n);
    sum = BigInt(scaled.length);
  }
  const floors = scaled.map((w) => (magnitude * w) / sum);
  const left = Number(magnitude - floors.reduce((a, b) => a + b, 0n));
  const byRemainder = scaled
    .map((w, i) => ({ i, remainder: (magnitude * w) % sum }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  for (const { i } of byRemainder.slice(0, left)) floors[i]! += 1n;
  return floors.map((c) => Number(total < 0n ? -c : c) / unit);
}
