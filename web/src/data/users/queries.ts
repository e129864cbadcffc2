import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery, deriveQuery } from "../query";

export type User = Schemas["User"];
export type ReportingLine = Schemas["ReportingLine"];
export type Role = User["role"];

/** GET /users with a page's filters (role, active, exact email), newest first. */
export const usersQuery = defineQuery("GET /api/v1/users", (query: QueryOf<"listUsers">) =>
  queryOptions({
    queryKey: keys.users.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/users", { params: { query } })),
  }),
);

/** The person (name, role): 404 when they are outside what the viewer sees. */
export const userQuery = defineQuery("GET /api/v1/users/{id}", (id: string) =>
  queryOptions({
    queryKey: keys.users.detail(id),
    queryFn: () => unwrap(api.GET("/api/v1/users/{id}", { params: { path: { id } } })),
  }),
);

/** Who the person reported to over time, oldest first (API.md §16); under users, so every user write refreshes it. */
export const reportingLinesQuery = defineQuery("GET /api/v1/users/{id}/reporting-lines", (id: string) =>
  queryOptions({
    queryKey: keys.users.detail(id, "reporting-lines"),
    queryFn: () => unwrap(api.GET("/api/v1/users/{id}/reporting-lines", { params: { path: { id } } })),
  }),
);

/**
 * Everyone the API lets this person see (a manager: themself and their subtree; finance and admins:
 * everyone), every page, each page read through usersQuery (so a write to users refreshes it too).
 */
export const everyoneQuery = deriveQuery("everyone", usersQuery, () =>
  queryOptions({
    queryKey: keys.users.list("everyone"),
    queryFn: async ({ client }): Promise<User[]> => {
      const users: User[] = [];
      for (let page = 1; page <= 50; page++) {
        const body = await client.fetchQuery(usersQuery({ page, per_page: 100 }));
        users.push(...body.data);
        if (body.data.length === 0 || users.length >= body.meta.total) break;
      }
      return users;
    },
    staleTime: 60_000,
  }),
);

/** People by id, to name owners, assignees and splits (someone outside the list shows their id). */
export const namesOf = (users: readonly User[]): Map<string, string> =>
  new Map(users.map((user) => [user.id, user.name]));
