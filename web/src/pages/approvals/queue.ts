import type { QueryClient } from "@tanstack/react-query";
import { plansQuery } from "../../data/comp-plans/queries";
import { type DealSort, type DealsQuery, type DealType, dealsQuery } from "../../data/deals/queries";
import { everyoneQuery } from "../../data/users/queries";
import { datesOf } from "../../lib/periods";

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
  sort: DealSort;
  page: number;
  perPage: number;
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

/** The queue as it first opens: no filters, newest first, 50 a page. */
export const FIRST_VIEW: QueueView = { filters: NO_FILTERS, sort: "-created_at", page: 1, perPage: 50 };

/** Asks for what the queue first shows while its code is still loading (the route's loader). */
export function prefetchApprovals(client: QueryClient): void {
  void client.prefetchQuery(queueQuery(FIRST_VIEW));
  void client.prefetchQuery(everyoneQuery());
  void client.prefetchQuery(planOptions());
}
