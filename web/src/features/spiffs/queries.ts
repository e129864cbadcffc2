import { queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";
import { today } from "../../lib/periods";

export type Spiff = Schemas["Spiff"];
export type DealType = NonNullable<Spiff["criteria"]["deal_types"]>[number];

export const DEAL_TYPE_LABELS = {
  new_business: "New business",
  expansion: "Expansion",
  renewal: "Renewal",
  other: "Other",
} as const satisfies Record<DealType, string>;

export const SPIFFS_PAGE_SIZE = 25;

export interface SpiffFilter {
  page: number;
  active?: "true" | "false";
}

export const spiffKeys = {
  all: ["spiffs"] as const,
  list: (filter: SpiffFilter) => ["spiffs", "list", filter] as const,
};

export const spiffsQuery = (filter: SpiffFilter) =>
  queryOptions({
    queryKey: spiffKeys.list(filter),
    queryFn: () => unwrap(api.GET("/api/v1/spiffs", { params: { query: { ...filter, per_page: SPIFFS_PAGE_SIZE } } })),
  });

export type SpiffState = "inactive" | "upcoming" | "running" | "ended";

/** Where a SPIFF stands today (the browser's date): switched off, not started, in its window, or past it. */
export function stateOf(spiff: Spiff, on = today()): SpiffState {
  if (!spiff.active) return "inactive";
  if (on < spiff.starts_on) return "upcoming";
  if (on > spiff.ends_on) return "ended";
  return "running";
}
