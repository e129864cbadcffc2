import { api, unwrap } from "../../api/client";
import type { QueryOf } from "../../api/types";

/**
 * A finalized run's payroll file as the API writes it (GET /payout-runs/{id}/export), with the name
 * its Content-Disposition gives. A download, not a cached query: nothing keeps it.
 */
export async function payoutRunExport(
  id: string,
  query: QueryOf<"exportPayoutRun">,
): Promise<{ blob: Blob; name: string }> {
  const result = await api.GET("/api/v1/payout-runs/{id}/export", {
    params: { path: { id }, query },
    parseAs: "blob",
  });
  const blob = (await unwrap(Promise.resolve(result))) as Blob;
  const disposition = result.response.headers.get("Content-Disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${id}-${query.format ?? "generic"}.csv`;
  return { blob, name };
}
