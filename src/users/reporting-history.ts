import { AppError, type ErrorDetail, validationError } from "../errors.js";
import type { ReportingLine } from "./schema.js";

// A user's reporting history as plain data (API.md §16): the spans a change leaves, and the days whose
// manager it moved. Nothing here reads the database.

const DAY_MS = 86_400_000;
const shift = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);

export const dayBefore = (date: string): string => shift(date, -1);
export const dayAfter = (date: string): string => shift(date, 1);

/** Today as the service counts it: the UTC date of `now`. */
export const todayOf = (now: Date): string => now.toISOString().slice(0, 10);

/**
 * The history once the manager is `managerId` from `from` (PATCH /users/{id}, API.md §16): the open line
 * ends the day before and a new one opens (`null`: a span with no manager); on the open line's own start
 * it is replaced. `from` must be today or earlier and not before the open line's start. Undefined when
 * nothing changes (the same manager; no manager for a user who never had one).
 */
export function withManagerFrom(
  lines: readonly ReportingLine[],
  managerId: string | null,
  from: string,
  today: string,
): ReportingLine[] | undefined {
  if (from > today) throw validationError("manager_effective_from", `must be today (${today}) or earlier`);
  const last = lines.at(-1);
  if (!last)
    return managerId === null ? undefined : [{ manager_id: managerId, effective_from: from, effective_to: null }];
  if (from < last.effective_from) {
    throw validationError(
      "manager_effective_from",
      `must be on or after ${last.effective_from}, when the current reporting line starts (PUT /users/{id}/reporting-lines rewrites earlier history)`,
    );
  }
  if (last.effective_to === null && last.manager_id === managerId) return undefined;
  const earlier = lines.slice(0, -1);
  if (from === last.effective_from) return [...earlier, { ...last, manager_id: managerId, effective_to: null }];
  return [
    ...earlier,
    { ...last, effective_to: last.effective_to ?? dayBefore(from) },
    { manager_id: managerId, effective_from: from, effective_to: null },
  ];
}

/**
 * A whole history as PUT /users/{id}/reporting-lines gives it: sorted by date, each line ending the day
 * before the next starts, the last open. Dates must be unique and today or earlier (422 naming
 * `lines[i].effective_from`, `i` the body's index).
 */
export function historyOf(
  given: readonly { manager_id: string | null; effective_from: string }[],
  today: string,
): ReportingLine[] {
  const details: ErrorDetail[] = [];
  const firstOn = new Map<string, number>();
  given.forEach((line, i) => {
    const param = `lines[${i}].effective_from`;
    const first = firstOn.get(line.effective_from);
    if (line.effective_from > today) details.push({ param, message: `must be today (${today}) or earlier` });
    else if (first !== undefined)
      details.push({ param, message: `repeats lines[${first}].effective_from; dates must be unique` });
    else firstOn.set(line.effective_from, i);
  });
  if (details.length > 0) {
    throw new AppError("validation_error", details.map((d) => `${d.param} ${d.message}`).join("; "), details);
  }
  const sorted = [...given].sort((a, b) => (a.effective_from < b.effective_from ? -1 : 1));
  return sorted.map((line, i) => ({
    manager_id: line.manager_id,
    effective_from: line.effective_from,
    effective_to: i + 1 < sorted.length ? dayBefore(sorted[i + 1]!.effective_from) : null,
  }));
}

/** Whether two histories hold the same spans. */
export function sameLines(a: readonly ReportingLine[], b: readonly ReportingLine[]): boolean {
  return (
    a.length === b.length &&
    a.every((l, i) => {
      const o = b[i]!;
      return (
        l.manager_id === o.manager_id && l.effective_from === o.effective_from && l.effective_to === o.effective_to
      );
    })
  );
}

/** The manager on `date` (null: none, or no line). */
export function managerOn(lines: readonly ReportingLine[], date: string): string | null {
  const line = lines.find((l) => l.effective_from <= date && (l.effective_to === null || l.effective_to >= date));
  return line?.manager_id ?? null;
}

/**
 * The inclusive date ranges (`to` null: open) on which the manager differs between two histories,
 * adjacent days merged. No line and a line with no manager are the same: nobody.
 */
export function changedRanges(
  before: readonly ReportingLine[],
  after: readonly ReportingLine[],
): { from: string; to: string | null }[] {
  const points = new Set<string>();
  for (const line of [...before, ...after]) {
    points.add(line.effective_from);
    if (line.effective_to !== null) points.add(dayAfter(line.effective_to));
  }
  // Between two consecutive points neither history changes manager: one comparison per segment.
  const sorted = [...points].sort();
  const ranges: { from: string; to: string | null }[] = [];
  sorted.forEach((from, i) => {
    if (managerOn(before, from) === managerOn(after, from)) return;
    const to = i + 1 < sorted.length ? dayBefore(sorted[i + 1]!) : null;
    const previous = ranges.at(-1);
    if (previous && previous.to === dayBefore(from)) previous.to = to;
    else ranges.push({ from, to });
  });
  return ranges;
}
