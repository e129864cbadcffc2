import type { Expression, RawBuilder, SqlBool } from "kysely";
import {
  usersSeenStatement,
  visibleDealsCondition,
  visiblePlansCondition,
  visibleUsersCondition,
} from "./conditions-repository.js";
import type { SeenUsers } from "./visibility.js";

/** Whose records a list may hold: null = everyone's (access/ `visibleUserIds`). */
export type Visible = readonly string[] | null;

// What other features' repositories add to a query to keep only the visible rows; the SQL of each is
// in conditions-repository.ts.

/** Rows belonging to a visible user (lines, assignments, users themselves): `column` holds a user id. */
export function ofVisibleUsers(column: string, ids: readonly string[]): Expression<SqlBool> {
  return visibleUsersCondition(column, ids);
}

/**
 * One statement over the users a person sees (`seenUsers`), the manager's subtree read inside it:
 * `with` goes before the statement (empty unless a subtree), `condition(column)` keeps the rows whose
 * `column` holds a seen user's id. Null when the person sees everyone.
 */
export function usersSeenIn(
  seen: SeenUsers,
): { with: RawBuilder<unknown>; condition: (column: string) => Expression<SqlBool> } | null {
  return seen === null ? null : usersSeenStatement(seen);
}

/** Rows whose deal (`column` holds its id) the users own or are credited on. */
export function ofVisibleDeals(column: string, ids: readonly string[]): Expression<SqlBool> {
  return visibleDealsCondition(column, ids);
}

/** Plans assigned (at any time) to a visible user. */
export function ofVisiblePlans(column: string, ids: readonly string[]): Expression<SqlBool> {
  return visiblePlansCondition(column, ids);
}

/** A deal record the users own or are credited on. */
export function dealSeen(ids: Visible, deal: { owner_id: string; splits: readonly { user_id: string }[] }): boolean {
  return ids === null || ids.includes(deal.owner_id) || deal.splits.some((s) => ids.includes(s.user_id));
}
