import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type Deal = Schemas["Deal"];
export type DealDetail = Schemas["DealDetail"];
export type DealType = Deal["deal_type"];
export type DealsQuery = QueryOf<"listDeals">;
export type DealSort = NonNullable<DealsQuery["sort"]>;

export const DEAL_TYPES = ["new_business", "expansion", "renewal", "other"] as const satisfies readonly DealType[];

/** A page of deals with the list's filters and sort (GET /deals). */
export const dealsQuery = defineQuery("GET /api/v1/deals", (query: DealsQuery) =>
  queryOptions({
    queryKey: keys.deals.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/deals", { params: { query } })),
  }),
);

/** One deal with its lines and explanations. */
export const dealQuery = defineQuery("GET /api/v1/deals/{id}", (id: string) =>
  queryOptions({
    queryKey: keys.deals.detail(id),
    queryFn: () => unwrap(api.GET("/api/v1/deals/{id}", { params: { path: { id } } })),
  }),
);

const HISTORY_PAGE_SIZE = 10;

/** A page of the deal's audit trail, newest first. */
export const dealHistoryQuery = defineQuery("GET /api/v1/deals/{id}/history", (id: string, page: number) =>
  queryOptions({
    queryKey: keys.deals.detail(id, "history", page),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/deals/{id}/history", {
          params: { path: { id }, query: { page, per_page: HISTORY_PAGE_SIZE } },
        }),
      ),
  }),
);
