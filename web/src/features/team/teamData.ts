import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";

export type User = Schemas["User"];
/**
 * The statement as this page reads it. `by_status` and each plan's `currency` arrive with the statement
 * work of branch h/home; until it is merged they are absent and the page shows "—" for them.
 */
export type Statement = Omit<Schemas["Statement"], "plans"> & {
  by_status?: { pending: number; approved: number; paid: number };
  plans: (Schemas["Statement"]["plans"][number] & { currency?: string })[];
};

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
