import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type PayoutGroup = Schemas["PayoutGroup"];

/** What is approved and not yet paid, by rep, period and currency, totals computed by the API. */
export const payoutsQuery = defineQuery("GET /api/v1/payouts", (query: QueryOf<"listPayouts">) =>
  queryOptions({
    queryKey: keys.payouts.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/payouts", { params: { query } })),
  }),
);
