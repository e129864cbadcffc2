import { ApiError } from "../../api/client";

/**
 * Fetches the statement as CSV (the session cookie authenticates a GET) and saves it under the name
 * the API gives in Content-Disposition.
 */
export async function downloadStatementCsv(userId: string, period: string): Promise<void> {
  const url = `/api/v1/users/${encodeURIComponent(userId)}/statement?period=${encodeURIComponent(period)}`;
  const response = await fetch(url, { headers: { Accept: "text/csv" }, credentials: "same-origin" });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
    throw new ApiError(
      response.status,
      body.error?.code ?? "unknown",
      body.error?.message ?? `${response.status} ${response.statusText}`,
      response.headers.get("Request-Id"),
    );
  }
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `statement-${userId}-${period}.csv`;
  const href = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
