// The only formatting code of the console: money in the plan's currency, percents and dates in the
// browser's locale. Amounts arrive computed (exact, rounded) from the API; nothing here adds them up.
// Money shows its currency's ISO 4217 minor-unit decimals (API.md §15): ¥617, $1,234.50, KWD 123.457.

import { minorUnits } from "./money";

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** 1234.5 → "$1,234.50" (en-US) or "1.234,50 $" (de-DE); 617 JPY → "¥617"; 123.457 KWD → "KWD 123.457". */
export function money(amount: number | string, currency = "USD"): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    const places = minorUnits(currency);
    format = new Intl.NumberFormat(undefined, {
      style: "currency",
      currency,
      minimumFractionDigits: places,
      maximumFractionDigits: places,
    });
    moneyFormats.set(currency, format);
  }
  return format.format(exactNumber(amount));
}

/**
 * An exact value as a number: a decimal, or "n/d" (a converted credit that does not terminate, API.md
 * §15), which only the display rounds.
 */
export function exactNumber(amount: number | string): number {
  if (typeof amount === "number") return amount;
  const [n, d] = amount.split("/");
  return d === undefined ? Number(amount) : Number(n) / Number(d);
}

/**
 * One formatter per set of options, made once: building an Intl formatter costs far more than using one
 * (a team page of 300 people formats thousands of figures).
 */
function once<F>(make: (digits: number) => F): (digits: number) => F {
  const made = new Map<number, F>();
  return (digits) => {
    let format = made.get(digits);
    if (!format) {
      format = make(digits);
      made.set(digits, format);
    }
    return format;
  };
}

const percentFormat = once(
  (maximumFractionDigits) => new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits }),
);
const decimalFormat = once((maximumFractionDigits) => new Intl.NumberFormat(undefined, { maximumFractionDigits }));
const dateFormat = once(() => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" }));
const dateTimeFormat = once(() => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }));

/** 0.1 → "10%"; 0.085 → "8.5%". */
export function percent(ratio: number | string, maximumFractionDigits = 2): string {
  return percentFormat(maximumFractionDigits).format(Number(ratio));
}

/** A plain number with grouping: 1234567.8 → "1,234,567.8". */
export function decimal(value: number | string, maximumFractionDigits = 2): string {
  return decimalFormat(maximumFractionDigits).format(Number(value));
}

/** "2026-07-15" → "Jul 15, 2026" (a calendar date: no time zone shift). */
export function date(isoDate: string): string {
  const [y, m, d] = isoDate.slice(0, 10).split("-").map(Number);
  return dateFormat(0).format(new Date(Date.UTC(y!, m! - 1, d!)));
}

/** An RFC 3339 timestamp in the browser's zone: "Jul 15, 2026, 10:04 AM". */
export function dateTime(timestamp: string): string {
  return dateTimeFormat(0).format(new Date(timestamp));
}

const exactFormats = new Map<string, Intl.NumberFormat>();

/**
 * An exact decimal from an explanation ("1728.042") as money with every digit it has (up to 6): what
 * the engine computed, for a tooltip (`moneyToCent`). Rounding is the API's, shown as its own step.
 */
export function exactMoney(amount: string, currency = "USD"): string {
  let format = exactFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(undefined, {
      style: "currency",
      currency,
      minimumFractionDigits: minorUnits(currency),
      maximumFractionDigits: 6,
    });
    exactFormats.set(currency, format);
  }
  return format.format(Number(amount));
}

/** A change of money with its sign: +$12.00, −$3.50, $0.00 (a plan change's delta). */
export function signedMoney(amount: number, currency = "USD"): string {
  if (amount > 0) return `+${money(amount, currency)}`;
  if (amount < 0) return `−${money(-amount, currency)}`;
  return money(0, currency);
}

let amountFormat: Intl.NumberFormat | undefined;

/**
 * Money whose currency the answer does not say (a reporting change's impact lines): 1234.5 → "1,234.50",
 * 123.457 → "123.457" (every digit it has, 3 at most, 2 at least), signed when `signed` (+12.00, −3.50, 0.00).
 */
export function amount(value: number, signed = false): string {
  amountFormat ??= new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 3 });
  const text = amountFormat.format(Math.abs(value));
  if (value < 0) return `−${text}`;
  return signed && value > 0 ? `+${text}` : text;
}

/** Whether an exact decimal ("781937.664") has more places than the currency's minor unit (cents for USD). */
export function hasMoreThanMinorUnits(amount: string | number, currency = "USD"): boolean {
  const text = String(amount);
  const places = minorUnits(currency);
  if (/e/i.test(text)) return !Number.isInteger(Number(text) * 10 ** places);
  const fraction = text.split(".")[1] ?? "";
  return fraction.replace(/0+$/, "").length > places;
}

/**
 * Money as every page shows it, to the cent: "$781,937.66"; and, when the exact value has more places
 * (an explanation's unrounded slice, attainment before a deal), that value for a tooltip:
 * "$781,937.664". `exact` is undefined when the cents say it all.
 */
export function moneyToCent(amount: string | number, currency = "USD"): { text: string; exact?: string } {
  const text = money(amount, currency);
  if (typeof amount === "string" && amount.includes("/"))
    return { text, exact: `${amount} = ${exactMoney(String(exactNumber(amount)), currency)}…` };
  return hasMoreThanMinorUnits(amount, currency) ? { text, exact: exactMoney(String(amount), currency) } : { text };
}

/** A share of a deal as the API gives it (60 = 60 %), in the one percent style: "60%", "33.33%". */
export function sharePercent(percentOf100: number | string): string {
  return percent(Number(percentOf100) / 100);
}
