import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type RollForward = Schemas["AccountingRollForward"];
export type JournalPage = Schemas["AccountingJournalPage"];
export type AccountingSettings = Schemas["AccountingSettings"];

/** The deferred commissions rolled forward per currency over a span of months (API.md §17). */
export const rollForwardQuery = defineQuery(
  "GET /api/v1/accounting/roll-forward",
  (query: QueryOf<"getAccountingRollForward">) =>
    queryOptions({
      queryKey: keys.accounting.list({ report: "roll-forward", ...query }),
      queryFn: () => unwrap(api.GET("/api/v1/accounting/roll-forward", { params: { query } })),
    }),
);

/** A month's journal: its rows page by page, or one row per account, side and currency (summary). */
export const journalQuery = defineQuery("GET /api/v1/accounting/journal", (query: QueryOf<"listAccountingJournal">) =>
  queryOptions({
    queryKey: keys.accounting.list({ report: "journal", ...query }),
    queryFn: () => unwrap(api.GET("/api/v1/accounting/journal", { params: { query } })) as Promise<JournalPage>,
  }),
);

export const accountingSettingsQuery = defineQuery("GET /api/v1/settings/accounting", () =>
  queryOptions({
    queryKey: keys.accounting.detail("settings"),
    queryFn: () => unwrap(api.GET("/api/v1/settings/accounting")),
  }),
);

/**
 * The month's journal as the API writes its CSV (every row, or the summary), with the name its
 * Content-Disposition gives. A download, not a cached query.
 */
export async function journalCsv(
  query: Omit<QueryOf<"listAccountingJournal">, "page" | "per_page">,
): Promise<{ blob: Blob; name: string }> {
  const result = await api.GET("/api/v1/accounting/journal", {
    params: { query },
    headers: { Accept: "text/csv" },
    parseAs: "blob",
  });
  const blob = (await unwrap(Promise.resolve(result))) as unknown as Blob;
  const disposition = result.response.headers.get("Content-Disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `journal-${query.month}.csv`;
  return { blob, name };
}
