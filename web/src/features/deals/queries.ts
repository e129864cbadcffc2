import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { dealDisputesQuery } from "../disputes/queries";

/** One key factory for deals: entity first, so invalidating ["deals"] reaches every deal query. */
export const dealKeys = {
  all: ["deals"] as const,
  detail: (id: string) => ["deals", id] as const,
  history: (id: string, page: number) => ["deals", id, "history", page] as const,
};

export const dealQuery = (id: string) =>
  queryOptions({
    queryKey: dealKeys.detail(id),
    queryFn: () => unwrap(api.GET("/api/v1/deals/{id}", { params: { path: { id } } })),
  });

export const HISTORY_PAGE_SIZE = 10;

export const dealHistoryQuery = (id: string, page: number) =>
  queryOptions({
    queryKey: dealKeys.history(id, page),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/deals/{id}/history", {
          params: { path: { id }, query: { page, per_page: HISTORY_PAGE_SIZE } },
        }),
      ),
  });

/** The people the signed-in person sees, by id, to name a deal's owner and splits (others show their id). */
export const peopleQuery = queryOptions({
  queryKey: ["users", "visible"],
  queryFn: async () => {
    const page = await unwrap(api.GET("/api/v1/users", { params: { query: { per_page: 100 } } }));
    return new Map(page.data.map((user) => [user.id, user.name]));
  },
  staleTime: 60_000,
});

/** Asks for what the deal page reads while its code is still loading (the route's loader). */
export function prefetchDealPage(queryClient: QueryClient, dealId: string): void {
  void queryClient.prefetchQuery(dealQuery(dealId));
  void queryClient.prefetchQuery(peopleQuery);
  void queryClient.prefetchQuery(dealDisputesQuery(dealId));
  void queryClient.prefetchQuery(dealHistoryQuery(dealId, 1));
}
