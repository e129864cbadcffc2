import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";

export type User = Schemas["User"];
export type Statement = Schemas["Statement"];

/** Everyone the API lets this person see (a manager: themself and their whole subtree), every page. */
export function useVisibleUsers() {
  return useQuery({
    queryKey: ["users", "all"],
    queryFn: async (): Promise<User[]> => {
      const users: User[] = [];
      for (let page = 1; ; page++) {
        const body = await unwrap(api.GET("/api/v1/users", { params: { query: { page, per_page: 100 } } }));
        users.push(...body.data);
        if (body.data.length === 0 || users.length >= body.meta.total) return users;
      }
    },
  });
}

export const statementQuery = (userId: string, period: string) => ({
  queryKey: ["statement", userId, period],
  // The route also answers text/csv (Accept); asked for JSON, the body is the Statement.
  queryFn: async () =>
    (await unwrap(
      api.GET("/api/v1/users/{id}/statement", { params: { path: { id: userId }, query: { period } } }),
    )) as Statement,
  placeholderData: keepPreviousData,
});

/** One statement per person for the period, in the order of `userIds`. */
export function useStatements(userIds: string[], period: string) {
  return useQueries({ queries: userIds.map((id) => statementQuery(id, period)) });
}
