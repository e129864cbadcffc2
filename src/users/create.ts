import { requireFields } from "../access/index.js";
import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { newId } from "../ids.js";
import { checkManager, saving } from "./checks.js";
import * as repo from "./repository.js";
import { CreateUserBody, type User } from "./schema.js";

export async function createUser(ctx: Ctx, input: CreateUserBody): Promise<User> {
  requireScope(ctx, "write");
  requireFields(ctx, CreateUserBody, input);
  return withTransaction(ctx, async (tx) => {
    await checkManager(tx, null, input.manager_id);
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
    return user;
  });
}
