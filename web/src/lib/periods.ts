// Commission periods as the API names them (API.md §4): "2026-Q3", "2026-07", "2026".

export type PlanPeriod = "month" | "quarter" | "year";

/** Whether a text names a period as the API does: "2026-Q3", "2026-07" (01–12) or "2026" (1000–9999). */
export function isPeriodLabel(text: string): boolean {
  return /^[1-9]\d{3}(-Q[1-4]|-(0[1-9]|1[0-2]))?$/.test(text);
}

/** The period containing a calendar date ("YYYY-MM-DD"), for a plan of that period kind. */
export function periodOf(kind: PlanPeriod, isoDate: string): string {
  const year = isoDate.slice(0, 4);
  const month = Number(isoDate.slice(5, 7));
  if (kind === "year") return year;
  if (kind === "month") return `${year}-${String(month).padStart(2, "0")}`;
  return `${year}-Q${Math.ceil(month / 3)}`;
}

/** Today's calendar date in the browser's zone, as "YYYY-MM-DD". */
export function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function currentPeriodLabel(kind: PlanPeriod): string {
  return periodOf(kind, today());
}

/** The period before this one: "2026-Q1" → "2025-Q4", "2026-01" → "2025-12", "2026" → "2025". */
export function previousPeriod(period: string): string {
  const quarter = /^(\d{4})-Q([1-4])$/.exec(period);
  if (quarter) {
    const [year, q] = [Number(quarter[1]), Number(quarter[2])];
    return q === 1 ? `${year - 1}-Q4` : `${year}-Q${q - 1}`;
  }
  const month = /^(\d{4})-(\d{2})$/.exec(period);
  if (month) {
    const [year, m] = [Number(month[1]), Number(month[2])];
    return m === 1 ? `${year - 1}-12` : `${year}-${String(m - 1).padStart(2, "0")}`;
  }
  return String(Number(period) - 1);
}

/** This period and the ones before it, oldest first: lastPeriods("2026-Q3", 4) → Q4 2025 … Q3 2026. */
export function lastPeriods(period: string, count: number): string[] {
  const out = [period];
  while (out.length < count) out.unshift(previousPeriod(out[0]!));
  return out;
}

/** "2026-Q3" → the kind of period it names. */
export function kindOf(period: string): PlanPeriod {
  if (/^\d{4}-Q[1-4]$/.test(period)) return "quarter";
  if (/^\d{4}-\d{2}$/.test(period)) return "month";
  return "year";
}

/** The period after this one: "2025-Q4" → "2026-Q1", "2025-12" → "2026-01", "2025" → "2026". */
export function nextPeriod(period: string): string {
  const quarter = /^(\d{4})-Q([1-4])$/.exec(period);
  if (quarter) {
    const [year, q] = [Number(quarter[1]), Number(quarter[2])];
    return q === 4 ? `${year + 1}-Q1` : `${year}-Q${q + 1}`;
  }
  const month = /^(\d{4})-(\d{2})$/.exec(period);
  if (month) {
    const [year, m] = [Number(month[1]), Number(month[2])];
    return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, "0")}`;
  }
  return String(Number(period) + 1);
}

/** A period's first and last calendar dates: "2026-Q3" → { from: "2026-07-01", to: "2026-09-30" }. */
export function datesOf(period: string): { from: string; to: string } {
  const year = Number(period.slice(0, 4));
  const kind = kindOf(period);
  const [first, last] =
    kind === "year"
      ? [1, 12]
      : kind === "month"
        ? [Number(period.slice(5)), Number(period.slice(5))]
        : quarterMonths(period);
  const lastDay = new Date(Date.UTC(year, last, 0)).getUTCDate();
  const pad = (n: number) => String(n).padStart(2, "0");
  return { from: `${year}-${pad(first)}-01`, to: `${year}-${pad(last)}-${pad(lastDay)}` };
}

function quarterMonths(period: string): [number, number] {
  const q = Number(period.slice(-1));
  return [q * 3 - 2, q * 3];
}

/** A period as GET /users/{id}/periods lists it (newest first). */
interface ListedPeriod {
  period: string;
  current: boolean;
  lines: number;
}

/**
 * Where a person's statement opens: the period of their plan in force today, else the newest period
 * they have lines in, else this calendar quarter (no plan and no lines: nothing better to show).
 */
export function openingPeriod(periods: readonly ListedPeriod[]): string {
  return (
    periods.find((p) => p.current)?.period ?? periods.find((p) => p.lines > 0)?.period ?? currentPeriodLabel("quarter")
  );
}
