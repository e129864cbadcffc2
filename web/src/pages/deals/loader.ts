import type { QueryClient } from "@tanstack/react-query";
import { dealHistoryQuery, dealQuery } from "../../data/deals/queries";
import { disputesQuery } from "../../data/disputes/queries";
import { everyoneQuery } from "../../data/users/queries";

/** A deal's disputes (a deal has few: the first 100). */
export const dealDisputes = (dealId: string) => disputesQuery({ deal_id: dealId, per_page: 100 });

/** Asks for what the deal page reads while its code is still loading (the route's loader). */
export function prefetchDealPage(client: QueryClient, dealId: string, historyPage: number | undefined = 1): void {
  void client.prefetchQuery(dealQuery(dealId));
  void client.prefetchQuery(everyoneQuery());
  void client.prefetchQuery(dealDisputes(dealId));
  void client.prefetchQuery(dealHistoryQuery(dealId, historyPage ?? 1));
}
