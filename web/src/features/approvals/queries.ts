import { keepPreviousData, type QueryClient, queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";
import type { operations } from "../../api/schema";
import { datesOf } from "../../lib/periods";
// The deal feature's queries module, not its index: the route's prefetch puts this file in the entry
// chunk, and the index would bring the deal's components (~29 KB gzip) with it.
import { dealKeys, peopleQuery } from "../deals/queries";

export type Deal = Schemas["Deal"];
export type DealType = Deal["deal_type"];
type ListQuery = NonNullable<operations["listDeals"]["parameters"]["query"]>;
export type QueueSort = NonNullable<ListQuery["sort"]>;
export type DealPage = operations["listDeals"]["responses"][200]["content"]["application/json"];

export const DEAL_TYPES: readonly DealType[] = ["new_business", "expansion", "renewal", "other"];

/** What the admin narrows the queue to; every field maps to a GET /deals filter. */
export interface QueueFilters {
  owner_id: string | null;
  /** A commission period ("2026-Q3", "2026-07", "2026"): its close dates. */
  period: string | null;
  arr_amount_min: string;
  arr_amount_max: string;
  deal_type: DealType[];
  plan_id: string | null;
}

export const NO_FILTERS: QueueFilters = {
  owner_id: null,
  period: null,
  arr_amount_min: "",
  arr_amount_max: "",
  deal_type: [],
  plan_id: null,
};

export interface QueueView {
  filters: QueueFilters;
  sort: QueueSort;
  page: number;
  perPage: number;
}

/** The GET /deals query of a view of the queue: pending deals only, the filters the admin set. */
export function listQueryOf({ filters, sort, page, perPage }: QueueView): ListQuery {
  const dates = filters.period ? datesOf(filters.period) : undefined;
  return {
    status: ["pending"],
    sort,
    page,
    per_page: perPage,
    ...(filters.owner_id ? { owner_id: filters.owner_id } : {}),
    ...(dates ? { close_date_from: dates.from, close_date_to: dates.to } : {}),
    ...(filters.arr_amount_min.trim() ? { arr_amount_min: filters.arr_amount_min.trim() } : {}),
    ...(filters.arr_amount_max.trim() ? { arr_amount_max: filters.arr_amount_max.trim() } : {}),
    ...(filters.deal_type.length > 0 ? { deal_type: filters.deal_type } : {}),
    ...(filters.plan_id ? { plan_id: filters.plan_id } : {}),
  };
}

/** One page of the queue; the previous page stays on screen while the next one loads. */
export const queueQuery = (view: QueueView) => {
  const query = listQueryOf(view);
  return queryOptions({
    queryKey: [...dealKeys.all, "list", query] as const,
    queryFn: () => unwrap(api.GET("/api/v1/deals", { params: { query } })),
    placeholderData: keepPreviousData,
  });
};

/** The comp plans, to filter by (an admin reads them all; the first 100 by newest). */
export const plansListQuery = queryOptions({
  queryKey: ["plans", "list", "filter-options"],
  queryFn: () => unwrap(api.GET("/api/v1/comp-plans", { params: { query: { per_page: 100 } } })),
  staleTime: 60_000,
});

/** The queue as it first opens: no filters, newest first, 50 a page. */
export const FIRST_VIEW: QueueView = { filters: NO_FILTERS, sort: "-created_at", page: 1, perPage: 50 };

/** Asks for what the queue first shows while its code is still loading (the route's loader). */
export function prefetchApprovals(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(queueQuery(FIRST_VIEW));
  void queryClient.prefetchQuery(peopleQuery);
  void queryClient.prefetchQuery(plansListQuery);
}
