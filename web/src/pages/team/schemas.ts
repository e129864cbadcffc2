import { oneOf, searchSchema, text } from "../../lib/search";

export const TEAM_COLUMNS = ["name", "role", "manager", "attainment", "pending", "approved", "paid", "deals"] as const;

/** /team: the period shown (the current quarter when absent) and the column the table sorts by. */
export const teamSearch = searchSchema({
  period: text(),
  sort: oneOf(TEAM_COLUMNS),
  order: oneOf(["ascending", "descending"]),
});
