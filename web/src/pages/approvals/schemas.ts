import { DEAL_TYPES, type DealSort } from "../../data/deals/queries";
import { oneOf, page, type SearchOf, searchSchema, someOf, text, whole } from "../../lib/search";

export const QUEUE_SORTS = [
  "-created_at",
  "created_at",
  "-close_date",
  "close_date",
  "-arr_amount",
  "arr_amount",
  "-total_commission",
  "total_commission",
] as const satisfies readonly DealSort[];

/** The page sizes offered; another in a link falls back to the first view's. */
export const PAGE_SIZES = [25, 50, 100] as const;

/** /approvals: the queue's filters (each a GET /deals filter), sort, page, page size and the deal open beside it. */
export const approvalsSearch = searchSchema({
  owner_id: text(),
  /** A commission period ("2026-Q3", "2026-07", "2026"): its close dates. */
  period: text(),
  arr_amount_min: text(),
  arr_amount_max: text(),
  deal_type: someOf(DEAL_TYPES),
  plan_id: text(),
  sort: oneOf(QUEUE_SORTS),
  page: page(),
  per_page: whole(),
  /** The deal whose lines the drawer shows. */
  deal: text(),
});

export type ApprovalsSearch = SearchOf<typeof approvalsSearch>;
