import { queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";
import type { operations } from "../../api/schema";

export type User = Schemas["User"];
export type Role = User["role"];
export type PeopleFilter = Omit<NonNullable<operations["listUsers"]["parameters"]["query"]>, "per_page">;

export const ROLE_LABELS = {
  rep: "Rep",
  manager: "Manager",
  finance: "Finance",
  admin: "Admin",
} as const satisfies Record<Role, string>;

export const PEOPLE_PAGE_SIZE = 25;

/** Every cached user list and user (the team page's "everyone" list too): what a write to a user changes. */
export const peopleKeys = {
  all: ["users"] as const,
  list: (filter: PeopleFilter) => ["users", "list", filter] as const,
};

/** GET /users with the page's filters (role, active, exact email), newest first. */
export const peopleQuery = (filter: PeopleFilter) =>
  queryOptions({
    queryKey: peopleKeys.list(filter),
    queryFn: () => unwrap(api.GET("/api/v1/users", { params: { query: { ...filter, per_page: PEOPLE_PAGE_SIZE } } })),
  });
