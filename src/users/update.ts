import { MAY, requireFields } from "../access/index.js";
import { audit } from "../audit/record.js";
import { type Ctx, requireScope, roleRefusal, withTransaction } from "../context.js";
import { notFound } from "../errors.js";
import { endSessionsOf } from "../sessions/index.js";
import { checkManager, saving } from "./checks.js";
import * as repo from "./repository.js";
import { UpdateUserBody, type User } from "./schema.js";

export async function updateUser(ctx: Ctx, id: string, input: UpdateUserBody): Promise<User> {
  requireScope(ctx, "write", MAY.updateUser);
  return withTransaction(ctx, async (tx) => {
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
    await checkManager(tx, id, input.manager_id);
    const changed = Object.entries(input).some(([k, v]) => v !== undefined && before[k as keyof User] !== v);
    if (!changed) return before;
    const after = await saving(input, () => repo.updateUser(tx, id, { ...input, updated_at: ctx.now }));
    await audit(tx, ctx, { action: "user.update", resource: "user", resourceId: id, before, after });
    // Signed-in sessions end with the access they were given: on the next request, in every process.
    if (before.active && !after.active) await endSessionsOf(tx, id, ctx.now, "deactivated");
    else if (before.role !== after.role) await endSessionsOf(tx, id, ctx.now, "role_change");
    return after;
  });
}
