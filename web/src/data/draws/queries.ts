import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type Draw = Schemas["Draw"];

/** A page of draws, newest first (filters user_id, currency, status; API.md §18). */
export const drawsQuery = defineQuery("GET /api/v1/draws", (query: QueryOf<"listDraws">) =>
  queryOptions({
    queryKey: keys.draws.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/draws", { params: { query } })),
  }),
);

/** One draw with its periods, entries and balance. */
export const drawQuery = defineQuery("GET /api/v1/draws/{id}", (id: string) =>
  queryOptions({
    queryKey: keys.draws.detail(id),
    queryFn: () => unwrap(api.GET("/api/v1/draws/{id}", { params: { path: { id } } })),
  }),
);
