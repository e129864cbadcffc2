import { audit } from "../audit/record.js";
import type { Ctx, Tx } from "../context.js";
import { validationError } from "../errors.js";
import { changedRanges, sameLines } from "./reporting-history.js";
import { replaceLines } from "./reporting-lines-repository.js";
import { reportingChanged } from "./reporting-port.js";
import type { ReportingLine, User } from "./schema.js";

/** A user as written, and the id of the override recalculation its reporting change left to the background. */
export interface UserWritten {
  user: User;
  recalculationJobId: string | null;
}

/** `manager_effective_from` says from when a new manager counts: alone it says nothing (API.md §16). */
export function requireManagerWithDate(input: { manager_id?: string | null; manager_effective_from?: string }): void {
  if (input.manager_effective_from !== undefined && input.manager_id === undefined) {
    throw validationError(
      "manager_effective_from",
      "is read only with manager_id: send the manager too (null for no manager)",
    );
  }
}

/**
 * Stores a user's new reporting history (API.md §16) and what follows from it in the same transaction:
 * the audit row `user.reporting_lines`, and the override lines of the days whose manager moved
 * recalculated through the port. The caller validated the lines, holds the reporting lock and keeps
 * `users.manager_id` (today's line) in step. Returns the id of a recalculation left to the background.
 */
export async function saveReportingLines(
  tx: Tx,
  ctx: Ctx,
  userId: string,
  before: ReportingLine[],
  after: ReportingLine[],
): Promise<string | null> {
  if (sameLines(before, after)) return null;
  await replaceLines(tx, userId, after);
  await audit(tx, ctx, {
    action: "user.reporting_lines",
    resource: "user",
    resourceId: userId,
    before: { lines: before },
    after: { lines: after },
  });
  const ranges = changedRanges(before, after);
  if (ranges.length === 0) return null;
  return (await reportingChanged(tx, ctx, { user_id: userId, ranges })).jobId;
}
