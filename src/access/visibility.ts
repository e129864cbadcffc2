import type { Ctx } from "../context.js";
import { selectSubtree } from "./visibility-repository.js";

/**
 * Whose records an actor sees (API.md §11): null = everyone (keys, the owner, admins and finance); a
 * rep → themself; a manager → themself and their whole `manager_id` subtree. Read once per request.
 */
const cache = new WeakMap<Ctx, Promise<readonly string[] | null>>();

export function visibleUserIds(ctx: Ctx): Promise<readonly string[] | null> {
  const seen = seenUsers(ctx);
  if (seen === null) return Promise.resolve(null);
  if ("ids" in seen) return Promise.resolve(seen.ids);
  let ids = cache.get(ctx);
  if (!ids) {
    ids = selectSubtree(ctx.db, seen.subtreeOf);
    cache.set(ctx, ids);
  }
  return ids;
}

/**
 * `visibleUserIds` before any read: everyone (null), these ids, or a manager's subtree, which a
 * statement can read inside itself (conditions.ts `usersSeenIn`) instead of a round trip of its own.
 */
export type SeenUsers = null | { ids: readonly string[] } | { subtreeOf: string };

export function seenUsers(ctx: Ctx): SeenUsers {
  const { actor } = ctx;
  if (actor.type !== "user" || actor.role === "admin" || actor.role === "finance") return null;
  if (actor.role === "rep") return { ids: [actor.userId] };
  return { subtreeOf: actor.userId };
}

/** True when the actor sees this user's records. */
export async function seesUser(ctx: Ctx, userId: string): Promise<boolean> {
  const ids = await visibleUserIds(ctx);
  return ids === null || ids.includes(userId);
}
