import type { UsersQuery } from "../../data/users/queries";

/** What the people list is narrowed to: GET /users's filters and page. */
export type PeopleFilter = Omit<UsersQuery, "per_page">;
