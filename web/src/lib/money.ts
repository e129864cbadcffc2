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
