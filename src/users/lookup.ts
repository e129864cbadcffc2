import type { Ctx, Tx } from "../context.js";
import { everBelow, linesBetween, linesOf, openLineStarts } from "./reporting-lines-repository.js";
import * as repo from "./repository.js";
import type { ReportingLine, User, UserReportingLine } from "./schema.js";

/**
 * The users a file names by id, email (any case), external id or payroll id, as stored (the CSV imports,
 * API.md §19): read once for the whole file, whatever its size.
 */
export function usersNamed(
  db: Ctx["db"] | Tx,
  named: { ids?: string[]; emails?: string[]; externalIds?: string[]; payrollIds?: string[] },
): Promise<User[]> {
  return repo.findUsersNamed(db, {
    ids: named.ids ?? [],
    emails: named.emails ?? [],
    externalIds: named.externalIds ?? [],
    payrollIds: named.payrollIds ?? [],
  });
}

/** Every user's manager, to check a file's reporting lines for cycles as they will be once it is imported. */
export function managerLinks(db: Ctx["db"] | Tx): Promise<Map<string, string | null>> {
  return repo.managerLinks(db);
}

/** A user's reporting history (API.md §16), oldest first: `{manager_id, effective_from, effective_to}`, inclusive. */
export function reportingLinesOf(db: Ctx["db"] | Tx, userId: string): Promise<ReportingLine[]> {
  return linesOf(db, userId);
}

/**
 * Everyone's reporting spans in force on some day of [from, to] (`to` null: open), by user then date:
 * who reported to whom on each close date of a range, for override lines.
 */
export function reportingLinesBetween(
  db: Ctx["db"] | Tx,
  from: string,
  to: string | null,
): Promise<UserReportingLine[]> {
  return linesBetween(db, from, to);
}

/** Everyone who ever reported to `userId`, directly or further below, on any date (themself left out), by id. */
export function everReportedTo(db: Ctx["db"] | Tx, userId: string): Promise<string[]> {
  return everBelow(db, userId);
}

/** The start of each of these users' open reporting line (a PATCH's manager_effective_from may not be earlier). */
export function openReportingLineStarts(db: Ctx["db"] | Tx, userIds: string[]): Promise<Map<string, string>> {
  return openLineStarts(db, userIds);
}
