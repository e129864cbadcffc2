import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery, deriveQuery } from "../query";

export type Statement = Schemas["Statement"];
export type StatementPlan = Statement["plans"][number];
export type TeamStatement = Schemas["TeamStatement"];

/** A person's statement for one period ("2026-Q3", "2026-07", "2026"): home and statement pages. */
export const statementQuery = defineQuery("GET /api/v1/users/{id}/statement", (userId: string, period: string) =>
  queryOptions({
    queryKey: keys.statements.detail(userId, period),
    queryFn: () =>
      unwrap(api.GET("/api/v1/users/{id}/statement", { params: { path: { id: userId }, query: { period } } })),
  }),
);

/**
 * A page of the people GET /users lists, each with their statement's numbers (no lines): for `on`, each
 * person's own plan period on that date (a month, a quarter or a year).
 */
export const teamStatementsQuery = defineQuery("GET /api/v1/users/statements", (query: QueryOf<"listTeamStatements">) =>
  queryOptions({
    queryKey: keys.statements.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/users/statements", { params: { query } })),
  }),
);

/** The most a page of GET /users/statements holds: a team of 300 is three requests. */
export const TEAM_PAGE_SIZE = 100;

/**
 * Everyone the viewer sees, each in their own plan period on the date `on` ("YYYY-MM-DD"): every page
 * of GET /users/statements (each cached by teamStatementsQuery), the pages after the first at once. The
 * team page sorts the whole team by any column, which the API's order (that of GET /users) cannot.
 */
export const teamOnQuery = deriveQuery("everyone on a date", teamStatementsQuery, (on: string) =>
  queryOptions({
    queryKey: keys.statements.list({ on, every: "page" }),
    queryFn: async ({ client }): Promise<TeamStatement[]> => {
      const page = (n: number) => client.fetchQuery(teamStatementsQuery({ on, page: n, per_page: TEAM_PAGE_SIZE }));
      const first = await page(1);
      const pages = Math.min(50, Math.ceil(first.meta.total / TEAM_PAGE_SIZE));
      const rest = await Promise.all(Array.from({ length: Math.max(0, pages - 1) }, (_, i) => page(i + 2)));
      return [first, ...rest].flatMap((body) => body.data);
    },
  }),
);

export type PeriodSummary = Schemas["PeriodSummary"];

/** Pages of a person's periods read at most: 100 × 20 is 166 years of monthly plans. */
const PERIOD_PAGES = 20;

/**
 * Every period a person has lines in, newest first, with their plan's current one (`current`): the
 * statement's period picker, the menu's Statement link and home's earlier periods. Keyed under the
 * person's statements, so whatever makes their statements stale (refresh.ts) makes these stale too.
 */
export const periodsQuery = defineQuery("GET /api/v1/users/{id}/periods", (userId: string) =>
  queryOptions({
    queryKey: keys.statements.detail(userId, "periods"),
    queryFn: async (): Promise<PeriodSummary[]> => {
      const periods: PeriodSummary[] = [];
      for (let page = 1; page <= PERIOD_PAGES; page++) {
        const body = await unwrap(
          api.GET("/api/v1/users/{id}/periods", { params: { path: { id: userId }, query: { page, per_page: 100 } } }),
        );
        periods.push(...body.data);
        if (body.data.length === 0 || periods.length >= body.meta.total) break;
      }
      return periods;
    },
  }),
);

/** What a person still owes from clawbacks, per currency, recovered from their next payout runs (API.md §13). */
export const payoutBalancesQuery = defineQuery("GET /api/v1/users/{id}/payout-balances", (userId: string) =>
  queryOptions({
    queryKey: keys.statements.detail(userId, "payout-balances"),
    queryFn: () => unwrap(api.GET("/api/v1/users/{id}/payout-balances", { params: { path: { id: userId } } })),
  }),
);
