import { type Ctx, requireScope, withTransaction } from "../context.js";
import { notFound } from "../errors.js";
import { checkManager } from "./checks.js";
import { historyOf, todayOf } from "./reporting-history.js";
import { saveReportingLines } from "./reporting-lines.js";
import { linesOf, lockReportingLines } from "./reporting-lines-repository.js";
import * as repo from "./repository.js";
import type { ReplaceReportingLinesBody, ReportingLines } from "./schema.js";

/**
 * PUT /users/{id}/reporting-lines (API.md §16, admins): the whole history rewritten. Each manager must
 * exist, not be the user and close no loop on any day of its span; `users.manager_id` becomes the last
 * line's manager (today's). Answers the new history and the id of a recalculation left to the background.
 */
export async function replaceReportingLines(
  ctx: Ctx,
  id: string,
  body: ReplaceReportingLinesBody,
): Promise<{ lines: ReportingLines; recalculationJobId: string | null }> {
  requireScope(ctx, "admin");
  const today = todayOf(ctx.now);
  const after = historyOf(body.lines, today);
  return withTransaction(ctx, async (tx) => {
    await lockReportingLines(tx);
    const user = await repo.lockUser(tx, id);
    if (!user) throw notFound("User", id);
    // If-Match: checked against the history as it stands under the locks.
    await ctx.precondition?.(tx);
    for (const line of after) {
      const i = body.lines.findIndex((given) => given.effective_from === line.effective_from);
      const span = { from: line.effective_from, to: line.effective_to, today };
      await checkManager(tx, id, line.manager_id, span, `lines[${i}].manager_id`);
    }
    const before = await linesOf(tx, id);
    const recalculationJobId = await saveReportingLines(tx, ctx, id, before, after);
    const manager = after.at(-1)?.manager_id ?? null;
    if (manager !== user.manager_id) await repo.updateUser(tx, id, { manager_id: manager, updated_at: ctx.now });
    return { lines: { data: after }, recalculationJobId };
  });
}
