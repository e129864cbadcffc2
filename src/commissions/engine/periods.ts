import type { PeriodKind } from "./types.js";

const MONTH = /^(\d{4})-(\d{2})$/;
const QUARTER = /^(\d{4})-Q([1-4])$/;
const YEAR = /^(\d{4})$/;

/**
 * A YYYY-MM-DD date as the number YYYYMMDD, else -1. Checked by character (it runs once per credit and
 * per sorted entry); for such strings numeric order is byte order.
 */
export function dateNumber(date: string): number {
  if (date.length !== 10 || date.charCodeAt(4) !== 45 || date.charCodeAt(7) !== 45) return -1;
  let n = 0;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    const digit = date.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    n = n * 10 + digit;
  }
  return n;
}

/** YYYYMM of a YYYY-MM-DD date; a RangeError when it is none. */
function yearMonth(date: string): number {
  const n = dateNumber(date);
  const month = n < 0 ? 0 : Math.floor(n / 100) % 100;
  if (month < 1 || month > 12) throw new RangeError(`invalid date "${date}": expected YYYY-MM-DD`);
  return Math.floor(n / 100);
}

function label(kind: PeriodKind, ym: number): string {
  const year = String(Math.floor(ym / 100)).padStart(4, "0");
  const month = ym % 100;
  switch (kind) {
    case "month":
      return `${year}-${String(month).padStart(2, "0")}`;
    case "quarter":
      return `${year}-Q${Math.ceil(month / 3)}`;
    case "year":
      return year;
  }
}

// Labels made once per (kind, month): this runs once per credit, and equal labels are then one string.
const labels = new Map<number, string>();

/** The calendar period of a plan containing `date`: "2026-07", "2026-Q3" or "2026". */
export function periodOf(kind: PeriodKind, date: string): string {
  const ym = yearMonth(date);
  const code = kind === "month" ? 0 : kind === "quarter" ? 1 : kind === "year" ? 2 : -1;
  if (code < 0) return label(kind, ym);
  const key = ym * 4 + code;
  let found = labels.get(key);
  if (found === undefined) {
    found = label(kind, ym);
    if (labels.size >= 4096) labels.clear();
    labels.set(key, found);
  }
  return found;
}

/** The calendar quarter containing `date`: the fallback period when no plan is in force. */
export function quarterOf(date: string): string {
  return periodOf("quarter", date);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function monthSpan(year: string, first: number, last: number): { from: string; to: string } {
  const pad = (n: number) => String(n).padStart(2, "0");
  return { from: `${year}-${pad(first)}-01`, to: `${year}-${pad(last)}-${daysInMonth(Number(year), last)}` };
}

/** First and last day (both inclusive) of a period label from `periodOf`. */
export function periodRange(period: string): { from: string; to: string } {
  const month = MONTH.exec(period);
  if (month && Number(month[2]) >= 1 && Number(month[2]) <= 12) {
    return monthSpan(month[1]!, Number(month[2]), Number(month[2]));
  }
  const quarter = QUARTER.exec(period);
  if (quarter) return monthSpan(quarter[1]!, Number(quarter[2]) * 3 - 2, Number(quarter[2]) * 3);
  const year = YEAR.exec(period);
  if (year) return monthSpan(year[1]!, 1, 12);
  throw new RangeError(`invalid period "${period}": expected YYYY-MM, YYYY-Qn or YYYY`);
}
