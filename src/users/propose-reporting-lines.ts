import type { Ctx, Tx } from "../context.js";
import { notFound, validationError } from "../errors.js";
import { checkManager } from "./checks.js";
import { changedRanges, historyOf, todayOf, withManagerFrom } from "./reporting-history.js";
import { linesOf } from "./reporting-lines-repository.js";
import * as repo from "./repository.js";
import type { ReportingChangeBody, ReportingLine } from "./schema.js";

export interface ProposedReporting {
  before: ReportingLine[];
  after: ReportingLine[];
  /** The close-date ranges whose manager the change moves (empty: it moves nothing). */
  ranges: { from: string; to: string | null }[];
}

/**
 * The history a PATCH (`{manager_id, manager_effective_from?}`) or a PUT (`{lines}`) would leave, checked
 * as they check it (404, 422 for the same reasons) and written nowhere: what an impact computes with.
 */
export async function proposeReportingLines(
  tx: Tx,
  ctx: Ctx,
  id: string,
  body: ReportingChangeBody,
): Promise<ProposedReporting> {
  const user = await repo.findUser(tx, id);
  if (!user) throw notFound("User", id);
  const today = todayOf(ctx.now);
  const before = await linesOf(tx, id);
  const change = body.manager_id !== undefined;
  if (change === (body.lines !== undefined)) {
    throw validationError(
      change ? "lines" : "manager_id",
      "give either manager_id (a move, as PATCH /users/{id}) or lines (a whole history, as PUT /users/{id}/reporting-lines)",
    );
  }
  if (body.lines !== undefined) {
    if (body.manager_effective_from !== undefined)
      throw validationError("manager_effective_from", "is read only with manager_id, not with lines");
    const after = historyOf(body.lines, today);
    for (const line of after) {
      const i = body.lines.findIndex((given) => given.effective_from === line.effective_from);
      const span = { from: line.effective_from, to: line.effective_to, today };
      await checkManager(tx, id, line.manager_id, span, `lines[${i}].manager_id`);
    }
    return { before, after, ranges: changedRanges(before, after) };
  }
  const managerId = body.manager_id ?? null;
  const from = body.manager_effective_from ?? today;
  const after = withManagerFrom(before, managerId, from, today);
  if (!after) return { before, after: before, ranges: [] };
  await checkManager(tx, id, managerId, { from, to: null, today });
  return { before, after, ranges: changedRanges(before, after) };
}
