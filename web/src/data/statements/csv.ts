import { api, unwrap } from "../../api/client";

/**
 * The statement as the API writes it in CSV (GET /users/{id}/statement.csv), each line with its deal's
 * name, close date, ARR, currency and the person's credit (deal_columns), with the file name the API
 * gives in Content-Disposition. A download, not a cached query: nothing keeps it.
 */
export async function statementCsv(userId: string, period: string): Promise<{ blob: Blob; name: string }> {
  const result = await api.GET("/api/v1/users/{id}/statement.csv", {
    params: { path: { id: userId }, query: { period, deal_columns: "true" } },
    parseAs: "blob",
  });
  const blob = (await unwrap(Promise.resolve(result))) as Blob;
  const disposition = result.response.headers.get("Content-Disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `statement-${userId}-${period}.csv`;
  return { blob, name };
}
