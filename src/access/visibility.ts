import type { Ctx } from "../context.js";
import { selectSubtree } from "./visibility-repository.js";

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
    ids = selectSubtree(ctx.db, actor.userId);
    cache.set(ctx, ids);
  }
  return ids;
}

/** True when the actor sees this user's records. */
export async function seesUser(ctx: Ctx, userId: string): Promise<boolean> {
  const ids = await visibleUserIds(ctx);
  return ids === null || ids.includes(userId);
}
