import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery, deriveQuery } from "../query";

export type PayoutGroup = Schemas["PayoutGroup"];

/** What is approved and not yet paid, by rep, period and currency, totals computed by the API. */
export const payoutsQuery = defineQuery("GET /api/v1/payouts", (query: QueryOf<"listPayouts">) =>
  queryOptions({
    queryKey: keys.payouts.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/payouts", { params: { query } })),
  }),
);

/** Every payout group (every page of GET /payouts, each read through payoutsQuery): what finance owes in all. */
export const allPayoutGroupsQuery = deriveQuery("all groups", payoutsQuery, () =>
  queryOptions({
    queryKey: keys.payouts.list("all"),
    queryFn: async ({ client }): Promise<PayoutGroup[]> => {
      const groups: PayoutGroup[] = [];
      for (let page = 1; page <= 50; page++) {
        const body = await client.fetchQuery(payoutsQuery({ page, per_page: 100 }));
        groups.push(...body.data);
        if (body.data.length === 0 || groups.length >= body.meta.total) break;
      }
      return groups;
    },
  }),
);
