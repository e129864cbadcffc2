import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type ApiKey = Schemas["ApiKey"];
export type Scope = ApiKey["scope"];

/** A page of keys, newest first. The API never returns a raw key here, only its prefix. */
export const apiKeysQuery = defineQuery("GET /api/v1/api-keys", (query: QueryOf<"listApiKeys">) =>
  queryOptions({
    queryKey: keys.apiKeys.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/api-keys", { params: { query } })),
  }),
);

/** One key (its grace end after a rotation). */
export const apiKeyQuery = defineQuery("GET /api/v1/api-keys/{id}", (id: string) =>
  queryOptions({
    queryKey: keys.apiKeys.detail(id),
    queryFn: () => unwrap(api.GET("/api/v1/api-keys/{id}", { params: { path: { id } } })),
  }),
);
