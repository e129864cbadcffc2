// A draw's periods (API.md §18), pure: months or calendar quarters, labelled as commission periods are
// ("2026-03", "2026-Q1"), each with its first and last day.

export type DrawPeriodKind = "month" | "quarter";

export interface DrawPeriod {
  label: string;
  starts_on: string;
  ends_on: string;
}

const pad = (n: number) => String(n).padStart(2, "0");
const lastDayOfMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The period holding `date`. */
export function periodOf(date: string, kind: DrawPeriodKind): DrawPeriod {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  if (kind === "month") {
    return {
      label: `${year}-${pad(month)}`,
      starts_on: `${year}-${pad(month)}-01`,
      ends_on: `${year}-${pad(month)}-${pad(lastDayOfMonth(year, month))}`,
    };
  }
  const q = Math.ceil(month / 3);
  const first = q * 3 - 2;
  const last = q * 3;
  return {
    label: `${year}-Q${q}`,
    starts_on: `${year}-${pad(first)}-01`,
    ends_on: `${year}-${pad(last)}-${pad(lastDayOfMonth(year, last))}`,
  };
}

export const isPeriodStart = (date: string, kind: DrawPeriodKind) => periodOf(date, kind).starts_on === date;
export const isPeriodEnd = (date: string, kind: DrawPeriodKind) => periodOf(date, kind).ends_on === date;

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The periods from starts_on whose last day is on or before ends_on, oldest first. */
export function periodsBetween(startsOn: string, endsOn: string, kind: DrawPeriodKind): DrawPeriod[] {
  const periods: DrawPeriod[] = [];
  let p = periodOf(startsOn, kind);
  while (p.ends_on <= endsOn) {
    periods.push(p);
    p = periodOf(nextDay(p.ends_on), kind);
  }
  return periods;
}

/** The commission periods whose lines count as earned in a draw period: a month in its quarter, never a quarter in a month. */
export function earningLabels(label: string): string[] {
  const quarter = /^(\d{4})-Q([1-4])$/.exec(label);
  if (!quarter) return [label];
  const year = quarter[1]!;
  const q = Number(quarter[2]);
  return [label, ...[0, 1, 2].map((i) => `${year}-${pad(q * 3 - 2 + i)}`)];
}
