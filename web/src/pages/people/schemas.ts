import type { Role } from "../../data/users/queries";
import { flag, oneOf, page, type SearchOf, searchSchema, text } from "../../lib/search";

export const ROLES = ["rep", "manager", "finance", "admin"] as const satisfies readonly Role[];

/** /people: GET /users's filters (role, active, the exact email) and the page. */
export const peopleSearch = searchSchema({ role: oneOf(ROLES), active: flag(), email: text(), page: page() });
export type PeopleSearch = SearchOf<typeof peopleSearch>;
