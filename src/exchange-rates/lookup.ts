import { divide, type Fraction, fraction, fractionOf } from "./rate-text.js";

// The rate of a conversion (API.md §15 "Conversion"), pure: over rate sets already loaded, so one read
// serves a whole batch of deals.

/** One day's rates for one base: 1 base = rates[code] units of code (exact decimal strings). */
export interface RateSet {
  date: string;
  base: string;
  rates: Record<string, string>;
}

/** A usable rate: 1 `from` = `rate` units of `to`, from the set of `base` on `rate_date`. */
export interface FxRate {
  from: string;
  to: string;
  rate: Fraction;
  rate_date: string;
  base: string;
}

export interface FxQuery {
  from: string;
  to: string;
  close_date: string;
  max_age_days: number;
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00.000Z`) / DAY_MS;

/** The largest fx_max_age_days a plan or SPIFF may have (API.md §15). */
export const MAX_FX_AGE_DAYS = 31;

const FIRST_DAY = dayNumber("0001-01-01");
const LAST_DAY = dayNumber("9999-12-31");

/** `date` minus `days` (YYYY-MM-DD), kept within the dates PostgreSQL stores (0001-01-01 … 9999-12-31). */
export function daysBefore(date: string, days: number): string {
  const day = Math.min(LAST_DAY, Math.max(FIRST_DAY, dayNumber(date) - days));
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export const daysAfter = (date: string, days: number): string => daysBefore(date, -days);

/** A set's rate for a code as a fraction: the base itself is 1; undefined when the set does not hold it. */
function unitsOf(set: RateSet, code: string): Fraction | undefined {
  if (code === set.base) return { num: 1n, den: 1n };
  const text = set.rates[code];
  return text === undefined ? undefined : fractionOf(text);
}

/**
 * Rate sets indexed by date for lookups: the latest date ≤ close_date on which some base holds both
 * currencies, no more than max_age_days before it; on that date the base `to`, then `from`, then by code.
 */
export class RateBook {
  /** Dates ascending; each date's sets by base code ascending. */
  private readonly dates: string[];
  private readonly byDate: Map<string, RateSet[]>;

  constructor(sets: readonly RateSet[]) {
    this.byDate = new Map();
    for (const set of sets) {
      const day = this.byDate.get(set.date) ?? [];
      day.push(set);
      this.byDate.set(set.date, day);
    }
    for (const day of this.byDate.values()) day.sort((a, b) => (a.base < b.base ? -1 : a.base > b.base ? 1 : 0));
    this.dates = [...this.byDate.keys()].sort();
  }

  /** The rate to convert `from` into `to` for a deal closed on `close_date`, or null when none is usable. */
  lookup(q: FxQuery): FxRate | null {
    if (q.from === q.to)
      return { from: q.from, to: q.to, rate: fraction(1n, 1n), rate_date: q.close_date, base: q.from };
    const oldest = daysBefore(q.close_date, q.max_age_days);
    for (let i = this.latestOnOrBefore(q.close_date); i >= 0 && this.dates[i]! >= oldest; i--) {
      const date = this.dates[i]!;
      const set = preferred(this.byDate.get(date)!, q.from, q.to);
      if (set) {
        const rate = divide(unitsOf(set, q.to)!, unitsOf(set, q.from)!);
        return { from: q.from, to: q.to, rate, rate_date: date, base: set.base };
      }
    }
    return null;
  }

  /** The index of the latest date ≤ `date`, -1 when every date is later. */
  private latestOnOrBefore(date: string): number {
    let lo = 0;
    let hi = this.dates.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.dates[mid]! <= date) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }
}

/** Of one day's sets (by code), the one to use: holding both, base `to` first, then `from`, then by code. */
function preferred(sets: RateSet[], from: string, to: string): RateSet | undefined {
  const holding = sets.filter((s) => unitsOf(s, from) && unitsOf(s, to));
  return holding.find((s) => s.base === to) ?? holding.find((s) => s.base === from) ?? holding[0];
}
