import type { Ctx, Tx } from "../context.js";
import * as repo from "./repository.js";

// Which users exist, for other features' reference checks.

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
