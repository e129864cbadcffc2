import { queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";

export type ApiKey = Schemas["ApiKey"];
export type Scope = ApiKey["scope"];

export const apiKeyKeys = {
  all: ["api-keys"] as const,
  list: (page: number) => ["api-keys", "list", page] as const,
};

export const API_KEYS_PAGE_SIZE = 25;

/** A page of keys, newest first. The API never returns a raw key here, only its prefix. */
export const apiKeysQuery = (page: number) =>
  queryOptions({
    queryKey: apiKeyKeys.list(page),
    queryFn: () => unwrap(api.GET("/api/v1/api-keys", { params: { query: { page, per_page: API_KEYS_PAGE_SIZE } } })),
  });
