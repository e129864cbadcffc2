import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type Statement = Schemas["Statement"];
export type StatementPlan = Statement["plans"][number];

/** A person's statement for one period ("2026-Q3", "2026-07", "2026"): home, statement and team pages. */
export const statementQuery = defineQuery("GET /api/v1/users/{id}/statement", (userId: string, period: string) =>
  queryOptions({
    queryKey: keys.statements.detail(userId, period),
    queryFn: () =>
      unwrap(api.GET("/api/v1/users/{id}/statement", { params: { path: { id: userId }, query: { period } } })),
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
