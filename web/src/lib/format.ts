// The only formatting code of the console: money in the plan's currency, percents and dates in the
// browser's locale. Amounts arrive computed (exact, rounded) from the API; nothing here adds them up.

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** 1234.5 → "$1,234.50" (en-US) or "1.234,50 $" (de-DE). */
export function money(amount: number | string, currency = "USD"): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { style: "currency", currency, minimumFractionDigits: 2 });
    moneyFormats.set(currency, format);
  }
  return format.format(Number(amount));
}

/** 0.1 → "10%"; 0.085 → "8.5%". */
export function percent(ratio: number | string, maximumFractionDigits = 2): string {
  return new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits }).format(Number(ratio));
}

/** A plain number with grouping: 1234567.8 → "1,234,567.8". */
export function decimal(value: number | string, maximumFractionDigits = 2): string {
  return new Intl.NumberFormat(undefined, { maximumFractionDigits }).format(Number(value));
}

/** "2026-07-15" → "Jul 15, 2026" (a calendar date: no time zone shift). */
export function date(isoDate: string): string {
  const [y, m, d] = isoDate.slice(0, 10).split("-").map(Number);
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" }).format(
    new Date(Date.UTC(y!, m! - 1, d!)),
  );
}

/** An RFC 3339 timestamp in the browser's zone: "Jul 15, 2026, 10:04 AM". */
export function dateTime(timestamp: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(timestamp));
}

const exactFormats = new Map<string, Intl.NumberFormat>();

/**
 * An exact decimal from an explanation ("1728.042") as money with every digit it has (up to 6), so an
 * unrounded slice reads as the engine computed it: "$1,728.042". Rounding is the API's, shown as its own step.
 */
export function exactMoney(amount: string, currency = "USD"): string {
  let format = exactFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(undefined, {
      style: "currency",
      currency,
      minimumFractionDigits: 2,
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
