import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";

export const planKeys = {
  all: ["plans"] as const,
  detail: (id: string) => ["plans", id] as const,
};

/** One comp plan (a rep sees the plans assigned to them; 404 for any other). */
export const planQuery = (id: string) =>
  queryOptions({
    queryKey: planKeys.detail(id),
    queryFn: () => unwrap(api.GET("/api/v1/comp-plans/{id}", { params: { path: { id } } })),
    staleTime: 5 * 60_000,
  });
