import { Readable } from "node:stream";
import type { Commission } from "./schema.js";

export const CSV_HEADER =
  "id,deal_id,user_id,kind,period,amount,status,plan_id,spiff_id,calculated_at,explanation_summary";

/** RFC 4180: a field with a comma, quote, CR or LF is quoted, its quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvRow(line: Commission): string {
  const summary = typeof line.explanation.summary === "string" ? line.explanation.summary : "";
  return [
    line.id,
    line.deal_id,
    line.user_id,
    line.kind,
    line.period,
    line.amount.toFixed(2),
    line.status,
    line.plan_id ?? "",
    line.spiff_id ?? "",
    line.calculated_at,
    summary,
  ]
    .map(csvField)
    .join(",");
}

/** The whole CSV text (records end with CRLF, as RFC 4180 writes them). */
export function csvText(lines: Commission[]): string {
  return [CSV_HEADER, ...lines.map(csvRow)].map((row) => `${row}\r\n`).join("");
}

/** Streams the header, then each page of lines as it is read: memory stays one page, whatever the count. */
export function csvStream(pages: AsyncIterable<Commission[]>): Readable {
  async function* rows() {
    yield `${CSV_HEADER}\r\n`;
    for await (const page of pages) yield page.map((line) => `${csvRow(line)}\r\n`).join("");
  }
  return Readable.from(rows());
}

/**
 * Content negotiation for the CSV endpoints: CSV when the client prefers text/csv to JSON (by q, a tie
 * going to JSON); anything else (no Accept, *\/*, application/json, unknown types) gets JSON.
 */
export function wantsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  let csv = 0;
  let json = 0;
  for (const part of accept.split(",")) {
    const [type = "", ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (Number.isNaN(q)) continue;
    if (type.trim() === "text/csv") csv = Math.max(csv, q);
    else if (["application/json", "application/*"].includes(type.trim())) json = Math.max(json, q);
  }
  return csv > 0 && csv > json;
}
