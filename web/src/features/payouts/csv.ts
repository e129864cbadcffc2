import type { Schemas } from "../../api/client";

type Commission = Schemas["Commission"];

/** The API's commission CSV header (API.md §4 Commissions), so a payout export reads like GET /commissions'. */
export const CSV_HEADER =
  "id,deal_id,user_id,kind,period,amount,status,plan_id,spiff_id,calculated_at,explanation_summary";

/** RFC 4180: a field with a comma, quote, CR or LF is quoted, its quotes doubled (as the API writes it). */
function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A text cell a spreadsheet would run as a formula gets a leading apostrophe, as the API's export does. */
function textField(value: string): string {
  return field(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

function row(line: Commission): string {
  const summary = typeof line.explanation.summary === "string" ? line.explanation.summary : "";
  const before = [line.id, line.deal_id, line.user_id, line.kind, line.period].map(textField);
  const after = [line.status, line.plan_id ?? "", line.spiff_id ?? "", line.calculated_at, summary].map(textField);
  // The API's amounts have at most 2 decimals: toFixed(2) writes them exactly, as the API's CSV does.
  return [...before, line.amount.toFixed(2), ...after].join(",");
}

/** The lines as the API's CSV writes them: a UTF-8 BOM, the header, CRLF after every record. */
export function linesCsv(lines: readonly Commission[]): string {
  return `\uFEFF${[CSV_HEADER, ...lines.map(row)].map((r) => `${r}\r\n`).join("")}`;
}

/** Saves text as a file through a temporary link (nothing leaves the browser). */
export function saveCsv(text: string, name: string): void {
  const href = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
