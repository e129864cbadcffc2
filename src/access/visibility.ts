import { sql } from "kysely";
import type { Ctx } from "../context.js";

/**
 * Whose records an actor sees (API.md §11): null = everyone (keys, the owner, admins and finance); a
 * rep → themself; a manager → themself and their whole `manager_id` subtree. Read once per request.
 */
const cache = new WeakMap<Ctx, Promise<readonly string[] | null>>();

export function visibleUserIds(ctx: Ctx): Promise<readonly string[] | null> {
  const { actor } = ctx;
  if (actor.type !== "user" || actor.role === "admin" || actor.role === "finance") return Promise.resolve(null);
  if (actor.role === "rep") return Promise.resolve([actor.userId]);
  let ids = cache.get(ctx);
  if (!ids) {
    ids = subtreeOf(ctx, actor.userId);
    cache.set(ctx, ids);
  }
  return ids;
}

/**
 * The manager and everyone below them. UNION (not UNION ALL) drops rows already found, so a cycle in
 * manager_id (the API refuses one, the table does not) ends instead of looping.
 */
async function subtreeOf(ctx: Ctx, managerId: string): Promise<readonly string[]> {
  const { rows } = await sql<{ id: string }>`
    WITH RECURSIVE tree(id) AS (
      SELECT ${managerId}::text
      UNION
      SELECT u.id FROM users u JOIN tree t ON u.manager_id = t.id
    )
    SELECT id FROM tree`.execute(ctx.db);
  return rows.map((r) => r.id);
}

/** True when the actor sees this user's records. */
export async function seesUser(ctx: Ctx, userId: string): Promise<boolean> {
  const ids = await visibleUserIds(ctx);
  return ids === null || ids.includes(userId);
}
