import type { QueryClient } from "@tanstack/react-query";
import { plansQuery } from "../../data/comp-plans/queries";
import { type DealSort, type DealsQuery, type DealType, dealsQuery } from "../../data/deals/queries";
import { everyoneQuery } from "../../data/users/queries";
import { datesOf } from "../../lib/periods";
import { type ApprovalsSearch, PAGE_SIZES } from "./schemas";

/** What the admin narrows the queue to, as the filter fields hold it; every field maps to a GET /deals filter. */
export interface QueueFilters {
  owner_id: string | null;
  /** A commission period ("2026-Q3", "2026-07", "2026"): its close dates. */
  period: string | null;
  arr_amount_min: string;
  arr_amount_max: string;
  deal_type: DealType[];
  plan_id: string | null;
}

export interface QueueView {
  filters: QueueFilters;
  sort: DealSort;
  page: number;
  perPage: number;
}

/** The queue as it first opens: no filters, newest first, 50 a page. */
export const FIRST_VIEW: QueueView = {
  filters: { owner_id: null, period: null, arr_amount_min: "", arr_amount_max: "", deal_type: [], plan_id: null },
  sort: "-created_at",
  page: 1,
  perPage: 50,
};

/** The view a URL's search parameters name (what they leave out: the first view's). */
export function viewOf(search: ApprovalsSearch): QueueView {
  return {
    filters: {
      owner_id: search.owner_id ?? null,
      period: search.period ?? null,
      arr_amount_min: search.arr_amount_min ?? "",
      arr_amount_max: search.arr_amount_max ?? "",
      deal_type: search.deal_type ?? [],
      plan_id: search.plan_id ?? null,
    },
    sort: search.sort ?? FIRST_VIEW.sort,
    page: search.page ?? FIRST_VIEW.page,
    perPage: PAGE_SIZES.find((size) => size === search.per_page) ?? FIRST_VIEW.perPage,
  };
}

/** The filters as search parameters: only those set (the page starts again at 1). */
export function searchOf(filters: QueueFilters): ApprovalsSearch {
  return {
    owner_id: filters.owner_id ?? undefined,
    period: filters.period ?? undefined,
    arr_amount_min: filters.arr_amount_min || undefined,
    arr_amount_max: filters.arr_amount_max || undefined,
    deal_type: filters.deal_type.length > 0 ? filters.deal_type : undefined,
    plan_id: filters.plan_id ?? undefined,
  };
}

/** The GET /deals query of a view of the queue: pending deals only, the filters the admin set. */
export function listQueryOf({ filters, sort, page, perPage }: QueueView): DealsQuery {
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

/** One page of the queue. */
export const queueQuery = (view: QueueView) => dealsQuery(listQueryOf(view));

/** The comp plans, to filter by (an admin reads them all; the first 100 by newest). */
export const planOptions = () => plansQuery({ per_page: 100 });

/** Asks for what the queue shows (the view its URL names) while its code is still loading (the route's loader). */
export function prefetchApprovals(client: QueryClient, search: ApprovalsSearch): void {
  void client.prefetchQuery(queueQuery(viewOf(search)));
  void client.prefetchQuery(everyoneQuery());
  void client.prefetchQuery(planOptions());
}
