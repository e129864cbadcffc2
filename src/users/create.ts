import { requireFields } from "../access/index.js";
import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { newId } from "../ids.js";
import { checkManager, saving } from "./checks.js";
import { todayOf, withManagerFrom } from "./reporting-history.js";
import { requireManagerWithDate, saveReportingLines, type UserWritten } from "./reporting-lines.js";
import * as repo from "./repository.js";
import { CreateUserBody, type User } from "./schema.js";

export async function createUser(ctx: Ctx, input: CreateUserBody): Promise<User> {
  return (await createUserRecalculating(ctx, input)).user;
}

/** POST /users: a manager's first reporting line starts at `manager_effective_from`, default today (API.md §16). */
export async function createUserRecalculating(ctx: Ctx, input: CreateUserBody): Promise<UserWritten> {
  requireScope(ctx, "write");
  requireFields(ctx, CreateUserBody, input);
  requireManagerWithDate(input);
  const today = todayOf(ctx.now);
  const from = input.manager_effective_from ?? today;
  const lines = input.manager_id === undefined ? undefined : withManagerFrom([], input.manager_id, from, today);
  return withTransaction(ctx, async (tx) => {
    await checkManager(tx, null, input.manager_id, { from, to: null, today });
    const user = await saving(input, () =>
      repo.insertUser(tx, {
        id: newId("usr", ctx.now.getTime()),
        external_id: input.external_id ?? null,
        name: input.name,
        email: input.email,
        role: input.role,
        manager_id: input.manager_id ?? null,
        active: input.active,
        payroll_id: input.payroll_id ?? null,
        created_at: ctx.now,
        updated_at: ctx.now,
      }),
    );
    await audit(tx, ctx, { action: "user.create", resource: "user", resourceId: user.id, after: user });
    const recalculationJobId = lines ? await saveReportingLines(tx, ctx, user.id, [], lines) : null;
    return { user, recalculationJobId };
  });
}
