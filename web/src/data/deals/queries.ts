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

// The ETag of each deal's latest read, beside the cache rather than in it: every page reads the deal as
// the API gives it, and only an edit needs the tag it started from (sent back as If-Match).
const lastEtags = new Map<string, string | null>();

/** The ETag of the deal as last read (dealQuery): what an edit that starts now sends back as If-Match. */
export const etagOfLastRead = (id: string): string | null => lastEtags.get(id) ?? null;

/** One deal with its lines and explanations. */
export const dealQuery = defineQuery("GET /api/v1/deals/{id}", (id: string) =>
  queryOptions({
    queryKey: keys.deals.detail(id),
    queryFn: async () => {
      const result = await api.GET("/api/v1/deals/{id}", { params: { path: { id } } });
      const deal = await unwrap(Promise.resolve(result));
      lastEtags.set(id, result.response.headers.get("ETag"));
      return deal;
    },
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
