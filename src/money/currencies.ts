// ISO 4217 minor units (API.md §15): how many decimals an amount in a currency has. Every amount the
// server reads, rounds or writes in a currency goes through these, so JPY never shows cents and KWD
// keeps its fils.
import { type Fixed, roundTo } from "./fixed.js";
import { amountNumber, fixedText, formatMoney, parse } from "./text.js";

const NO_DECIMALS = new Set("BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF".split(" "));
const THREE_DECIMALS = new Set("BHD IQD JOD KWD LYD OMR TND".split(" "));

/** The most decimals any currency has: what the columns and the schema-level check allow. */
export const MAX_MINOR_UNITS = 3;

/** The number of decimals of `currency`'s minor unit: 0, 2 or 3. */
export function minorUnits(currency: string): number {
  return NO_DECIMALS.has(currency) ? 0 : THREE_DECIMALS.has(currency) ? 3 : 2;
}

/** Rounded half away from zero to `currency`'s minor unit (at that scale; never negative zero). */
export const roundMinor = (a: Fixed, currency: string): Fixed => roundTo(a, minorUnits(currency));

/** Text at exactly the currency's decimals, rounded: "1234.50" USD, "617" JPY, "123.457" KWD (CSV, storage). */
export const moneyText = (a: Fixed, currency: string): string => fixedText(a, minorUnits(currency));

/** Rounded to the currency's minor unit as a JSON number (1234.5, 617, 123.457). */
export const moneyNumber = (a: Fixed, currency: string): number => amountNumber(roundMinor(a, currency));

/** For people: "10,000.00" USD, "12,345" JPY, "1,234.567" KWD (thousands separators, full precision beyond). */
export const formatIn = (a: Fixed, currency: string): string => formatMoney(a, minorUnits(currency));

/** Decimal places of a decimal's text or number ("1000.5" → 1; trailing zeros do not count). */
export function decimalPlaces(value: string | number): number {
  return parse(value).s;
}

/** Whether `value` has more decimals than `currency` allows (API.md §15: → 422). */
export const tooManyDecimals = (value: string | number, currency: string): boolean =>
  decimalPlaces(value) > minorUnits(currency);
