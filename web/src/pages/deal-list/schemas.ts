import type { Deal, DealSort } from "../../data/deals/queries";
import { oneOf, page, type SearchOf, searchSchema, someOf, text, whole } from "../../lib/search";

export const DEAL_STATUSES = [
  "pending",
  "approved",
  "disputed",
  "paid",
  "rejected",
  "cancelled",
] as const satisfies readonly Deal["status"][];

/** Every sort GET /deals takes. */
export const DEAL_SORTS = [
  "-close_date",
  "close_date",
  "-arr_amount",
  "arr_amount",
  "-total_commission",
  "total_commission",
  "-created_at",
  "created_at",
] as const satisfies readonly DealSort[];

export const PAGE_SIZES = [25, 50, 100] as const;

/** /deals: GET /deals's filters (name, status, close period, owner), sort, page and page size. */
export const dealListSearch = searchSchema({
  q: text(),
  status: someOf(DEAL_STATUSES),
  /** A commission period ("2026-Q3", "2026-07", "2026"): its close dates. */
  period: text(),
  owner_id: text(),
  sort: oneOf(DEAL_SORTS),
  page: page(),
  per_page: whole(),
});

export type DealListSearch = SearchOf<typeof dealListSearch>;
