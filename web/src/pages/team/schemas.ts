import * as z from "zod/mini";
import { oneOf, optional, searchSchema } from "../../lib/search";

export const TEAM_COLUMNS = [
  "name",
  "role",
  "manager",
  "period",
  "attainment",
  "total",
  "pending",
  "approved",
  "paid",
  "deals",
] as const;

/**
 * /team: the date whose plan periods are shown (today's when absent: each person's current period) and
 * the column the table sorts by.
 */
export const teamSearch = searchSchema({
  on: optional(z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/))),
  sort: oneOf(TEAM_COLUMNS),
  order: oneOf(["ascending", "descending"]),
});
