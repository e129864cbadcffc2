import { queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";
import { dealKeys } from "../deals/queries";

export type PayoutGroup = Schemas["PayoutGroup"];
export type Deal = Schemas["Deal"];

export const payoutKeys = { all: ["payouts"] as const };

export const GROUPS_PAGE_SIZE = 25;
export const DEALS_PAGE_SIZE = 50;

/** What is approved and not yet paid, by rep, period and currency, totals computed by the API (GET /payouts). */
export const payoutGroupsQuery = (page: number) =>
  queryOptions({
    queryKey: [...payoutKeys.all, "groups", page] as const,
    queryFn: () => unwrap(api.GET("/api/v1/payouts", { params: { query: { page, per_page: GROUPS_PAGE_SIZE } } })),
  });

/** The deals that can be marked paid (approved ones), oldest close date first: under dealKeys.all, so paying refreshes them. */
export const dealsToPayQuery = (page: number, ownerId: string | null) =>
  queryOptions({
    queryKey: [...dealKeys.all, "to-pay", ownerId, page] as const,
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/deals", {
          params: {
            query: {
              status: ["approved"],
              sort: "close_date",
              page,
              per_page: DEALS_PAGE_SIZE,
              ...(ownerId ? { owner_id: ownerId } : {}),
            },
          },
        }),
      ),
  });
