import { MAY, requireFields } from "../access/index.js";
import { audit } from "../audit/record.js";
import { type Ctx, requireScope, roleRefusal, withTransaction } from "../context.js";
import { notFound } from "../errors.js";
import { endSessionsOf } from "../sessions/index.js";
import { checkManager, saving } from "./checks.js";
import { todayOf, withManagerFrom } from "./reporting-history.js";
import { requireManagerWithDate, saveReportingLines, type UserWritten } from "./reporting-lines.js";
import { linesOf, lockReportingLines } from "./reporting-lines-repository.js";
import * as repo from "./repository.js";
import { type ReportingLine, UpdateUserBody, type User } from "./schema.js";

export async function updateUser(ctx: Ctx, id: string, input: UpdateUserBody): Promise<User> {
  return (await updateUserRecalculating(ctx, id, input)).user;
}

/**
 * PATCH /users/{id}. A new `manager_id` ends the open reporting line the day before
 * `manager_effective_from` (default today) and opens one from it (API.md §16); `users.manager_id` stays
 * today's manager.
 */
export async function updateUserRecalculating(ctx: Ctx, id: string, input: UpdateUserBody): Promise<UserWritten> {
  requireScope(ctx, "write", MAY.updateUser);
  requireManagerWithDate(input);
  const { manager_effective_from: from, ...fields } = input;
  return withTransaction(ctx, async (tx) => {
    // Reporting writes take turns before any user is locked (a cycle check reads everyone's lines).
    if (fields.manager_id !== undefined) await lockReportingLines(tx);
    const before = await repo.lockUser(tx, id);
    if (!before) throw notFound("User", id);
    requireFields(ctx, UpdateUserBody, input, before);
    // Finance people record payroll ids (API.md §13); every other change is an admin's.
    const { actor } = ctx;
    if (actor.type === "user" && actor.role === "finance") {
      const other = Object.entries(input).some(
        ([k, v]) => k !== "payroll_id" && v !== undefined && before[k as keyof User] !== v,
      );
      if (other) throw roleRefusal(["admin"], actor.role);
    }
    await ctx.precondition?.(tx);
    let lines: { before: ReportingLine[]; after: ReportingLine[] } | undefined;
    if (fields.manager_id !== undefined) {
      const today = todayOf(ctx.now);
      const history = await linesOf(tx, id);
      const start = from ?? today;
      const after = withManagerFrom(history, fields.manager_id, start, today);
      if (after) {
        await checkManager(tx, id, fields.manager_id, { from: start, to: null, today });
        lines = { before: history, after };
      }
    }
    const changed = Object.entries(fields).some(([k, v]) => v !== undefined && before[k as keyof User] !== v);
    if (!changed && !lines) return { user: before, recalculationJobId: null };
    const after = await saving(input, () => repo.updateUser(tx, id, { ...fields, updated_at: ctx.now }));
    if (changed) await audit(tx, ctx, { action: "user.update", resource: "user", resourceId: id, before, after });
    const recalculationJobId = lines ? await saveReportingLines(tx, ctx, id, lines.before, lines.after) : null;
    // Signed-in sessions end with the access they were given: on the next request, in every process.
    if (before.active && !after.active) await endSessionsOf(tx, id, ctx.now, "deactivated");
    else if (before.role !== after.role) await endSessionsOf(tx, id, ctx.now, "role_change");
    return { user: after, recalculationJobId };
  });
}
