import { type DealSort, type DealsQuery, dealsQuery } from "../../data/deals/queries";
import { datesOf, isPeriodLabel } from "../../lib/periods";
import { type DealListSearch, PAGE_SIZES } from "./schemas";

/** The list as it first opens: latest close date first, 25 a page. */
export const FIRST_SORT: DealSort = "-close_date";

/** The GET /deals query a URL's search parameters name (a period that is not one is left out). */
export function dealListQueryOf(search: DealListSearch, seesOthers: boolean): DealsQuery {
  const dates = search.period && isPeriodLabel(search.period) ? datesOf(search.period) : undefined;
  const q = search.q?.trim();
  return {
    sort: search.sort ?? FIRST_SORT,
    page: search.page ?? 1,
    per_page: PAGE_SIZES.find((size) => size === search.per_page) ?? PAGE_SIZES[0],
    ...(q ? { q } : {}),
    ...(search.status && search.status.length > 0 ? { status: search.status } : {}),
    ...(dates ? { close_date_from: dates.from, close_date_to: dates.to } : {}),
    ...(seesOthers && search.owner_id ? { owner_id: search.owner_id } : {}),
  };
}

/** One page of the list. */
export const dealListQuery = (search: DealListSearch, seesOthers: boolean) =>
  dealsQuery(dealListQueryOf(search, seesOthers));
