import { requireFields, seesUser, visibleUserIds } from "../access/index.js";
import { audit } from "../audit/record.js";
import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import { isUniqueViolation } from "../db/errors.js";
import { conflict, notFound, validationError } from "../errors.js";
import { offsetOf, type Page } from "../http/pagination.js";
import { newId } from "../ids.js";
import { endSessionsOf } from "../sessions/index.js";
import * as repo from "./repository.js";
import { CreateUserBody, type ListUsersQuery, UpdateUserBody, type User } from "./schema.js";

export async function listUsers(ctx: Ctx, query: ListUsersQuery): Promise<Page<User>> {
  requireScope(ctx, "read");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listUsers(ctx.db, query, await visibleUserIds(ctx), limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}

export async function getUser(ctx: Ctx, id: string): Promise<User> {
  requireScope(ctx, "read");
  const user = await repo.findUser(ctx.db, id);
  if (!user || !(await seesUser(ctx, id))) throw notFound("User", id);
  return user;
}

/** Which of these user ids exist, for other features' reference checks (a read: writers lock instead). */
export function existingUserIds(db: Ctx["db"] | Tx, ids: string[]): Promise<Set<string>> {
  return repo.existingUserIds(db, ids);
}

/**
 * Locks the existing users among `ids` so no concurrent request changes or deletes them before commit;
 * always in id order, so lockers of overlapping sets serialize instead of deadlocking. Returns their ids.
 */
export function lockExistingUsers(tx: Tx, ids: string[]): Promise<Set<string>> {
  return repo.lockUserIds(tx, ids);
}

/** Unique emails and external ids surface as 409 `conflict` naming the value. */
async function saving<T>(input: { email?: string; external_id?: string | null }, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err, "users_email_key")) throw conflict(`A user with email ${input.email} already exists`);
    if (isUniqueViolation(err, "users_external_id_key")) {
      throw conflict(`A user with external_id ${input.external_id} already exists`);
    }
    throw err;
  }
}

async function checkManager(tx: Tx, userId: string | null, managerId: string | null | undefined): Promise<void> {
  if (!managerId) return;
  if (managerId === userId) throw validationError("manager_id", "cannot be the user itself");
  if (!(await repo.findUser(tx, managerId))) throw validationError("manager_id", `user ${managerId} does not exist`);
  if (userId && (await repo.managerChain(tx, managerId)).includes(userId)) {
    throw validationError("manager_id", `${managerId} reports to ${userId}; managers cannot form a cycle`);
  }
}

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
        created_at: ctx.now,
        updated_at: ctx.now,
      }),
    );
    await audit(tx, ctx, { action: "user.create", resource: "user", resourceId: user.id, after: user });
    return user;
  });
}

export async function updateUser(ctx: Ctx, id: string, input: UpdateUserBody): Promise<User> {
  requireScope(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    const before = await repo.lockUser(tx, id);
    if (!before) throw notFound("User", id);
    requireFields(ctx, UpdateUserBody, input, before);
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

/**
 * `POST /users/{id}/sessions/revoke` (admin): ends every open session of the user, effective on their
 * next request in every process; `revoked` counts them (0 when none was open). Audited as session.revoke.
 */
export async function revokeSessions(ctx: Ctx, id: string): Promise<{ revoked: number }> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    if (!(await repo.lockUser(tx, id))) throw notFound("User", id);
    const revoked = await endSessionsOf(tx, id, ctx.now, "revoked");
    await audit(tx, ctx, { action: "session.revoke", resource: "user", resourceId: id, after: { revoked } });
    return { revoked };
  });
}
