import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type PayoutRun = Schemas["PayoutRunSummary"];
export type PayoutRunDetail = Schemas["PayoutRunDetail"];
export type Payee = Schemas["PayoutRunPayee"];
export type RunLine = PayoutRunDetail["lines"]["data"][number];

/** Payout runs, newest first (GET /payout-runs). */
export const payoutRunsQuery = defineQuery("GET /api/v1/payout-runs", (query: QueryOf<"listPayoutRuns">) =>
  queryOptions({
    queryKey: keys.payoutRuns.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/payout-runs", { params: { query } })),
  }),
);

/** One run with its payees and a page of its lines (one person's when `user_id` is given). */
export const payoutRunQuery = defineQuery(
  "GET /api/v1/payout-runs/{id}",
  (id: string, query: QueryOf<"getPayoutRun">) =>
    queryOptions({
      queryKey: keys.payoutRuns.detail(id, query),
      queryFn: () => unwrap(api.GET("/api/v1/payout-runs/{id}", { params: { path: { id }, query } })),
    }),
);
