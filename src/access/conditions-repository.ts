import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";
import type { SeenUsers } from "./visibility.js";
import { subtreeWith } from "./visibility-repository.js";

// The SQL of access/conditions.ts: conditions a repository adds to its query so it holds only what the
// person sees. Services and other features reach them through conditions.ts (an index never re-exports SQL).

/** `column = ANY(ids)`: rows belonging to a visible user (lines, assignments, users themselves). */
export function visibleUsersCondition(column: string, ids: readonly string[]): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} = ANY(${[...ids]}::text[])`;
}

/**
 * Rows whose deal (`column` holds its id) the users own or are credited on: the owner index and the
 * split index give the deal ids, then `= ANY(ARRAY(…))` fetches them by key. (As `IN (subquery)`
 * PostgreSQL hash-joined a scan of every deal: 98 ms against 9 ms for a rep's page of 100k deals.)
 */
export function visibleDealsCondition(column: string, ids: readonly string[]): Expression<SqlBool> {
  const list = [...ids];
  return sql<SqlBool>`${sql.ref(column)} = ANY(ARRAY(
    SELECT d.id FROM deals d WHERE d.owner_id = ANY(${list}::text[])
    UNION SELECT s.deal_id FROM deal_splits s WHERE s.user_id = ANY(${list}::text[])))`;
}

/** Plans assigned (at any time) to a visible user. */
export function visiblePlansCondition(column: string, ids: readonly string[]): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} IN (SELECT a.plan_id FROM plan_assignments a WHERE a.user_id = ANY(${[...ids]}::text[]))`;
}

/** See conditions.ts `usersSeenIn`. */
export function usersSeenStatement(seen: Exclude<SeenUsers, null>): {
  with: RawBuilder<unknown>;
  condition: (column: string) => Expression<SqlBool>;
} {
  if ("ids" in seen) return { with: sql``, condition: (column) => visibleUsersCondition(column, seen.ids) };
  return {
    with: subtreeWith("seen_users", seen.subtreeOf),
    // As `= ANY(ARRAY(…))` the subtree is an array of keys: each list reads the users by id (as IN it
    // hash-joined a scan of every user).
    condition: (column) => sql<SqlBool>`${sql.ref(column)} = ANY(ARRAY(SELECT id FROM seen_users))`,
  };
}
