import { Readable } from "node:stream";
import { moneyText, parse } from "../../money/index.js";
import type { Commission, StatementLine } from "../schema.js";

export const CSV_HEADER =
  "id,deal_id,user_id,kind,period,amount,status,plan_id,spiff_id,calculated_at,explanation_summary,currency";

/**
 * A UTF-8 byte order mark opens every export: Excel and LibreOffice then read the file as UTF-8
 * (ü, 日本 intact), and BOM-aware parsers (csv-parse `bom: true`, Python's utf-8-sig) drop it.
 */
export const CSV_BOM = "\uFEFF";

/** RFC 4180: a field with a comma, quote, CR or LF is quoted, its quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A text cell a spreadsheet would run as a formula (starting with = + - @ TAB or CR) gets a leading
 * apostrophe, as OWASP advises for CSV injection. Only text cells: `amount` is a number we format
 * ourselves (`-50.00` must stay a number), so it is written as is.
 */
export function csvTextField(value: string): string {
  return csvField(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

/** What a CSV row shows of a line: its columns and, of its explanation, only the summary. */
export type CsvLine = Pick<
  Commission,
  | "id"
  | "deal_id"
  | "user_id"
  | "kind"
  | "period"
  | "amount"
  | "currency"
  | "status"
  | "plan_id"
  | "spiff_id"
  | "calculated_at"
> & { explanation: { summary?: unknown } };

export function csvRow(line: CsvLine): string {
  const summary = typeof line.explanation.summary === "string" ? line.explanation.summary : "";
  // amount is the only numeric column; every other cell is text.
  const before = [line.id, line.deal_id ?? "", line.user_id, line.kind, line.period].map(csvTextField);
  const after = [line.status, line.plan_id ?? "", line.spiff_id ?? "", line.calculated_at, summary, line.currency].map(
    csvTextField,
  );
  // At the line currency's decimals (API.md §15): "1234.50" USD, "617" JPY, "123.457" KWD.
  return [...before, moneyText(parse(line.amount), line.currency), ...after].join(",");
}

/** The whole CSV text (records end with CRLF, as RFC 4180 writes them). */
export function csvText(lines: CsvLine[]): string {
  return CSV_BOM + [CSV_HEADER, ...lines.map(csvRow)].map((row) => `${row}\r\n`).join("");
}

/** The statement CSV's columns after the contract's when asked (`deal_columns=true`): the deal as a person names it. */
export const DEAL_COLUMNS = "opportunity_name,close_date,arr_amount,deal_currency,credit_percent";

/** A statement as CSV; with `dealColumns`, each row ends with its deal's name, close date, ARR and the credit %. */
export function statementCsvText(lines: StatementLine[], dealColumns: boolean): string {
  if (!dealColumns) return csvText(lines);
  const row = ({ deal, ...line }: StatementLine) => {
    if (deal === null) return [csvRow(line), "", "", "", "", ""].join(",");
    const text = [deal.opportunity_name, deal.close_date].map(csvTextField);
    const numbers = [
      moneyText(parse(deal.arr_amount), deal.currency),
      csvTextField(deal.currency),
      deal.credit_percent?.toString() ?? "",
    ];
    return [csvRow(line), ...text, ...numbers].join(",");
  };
  return CSV_BOM + [`${CSV_HEADER},${DEAL_COLUMNS}`, ...lines.map(row)].map((r) => `${r}\r\n`).join("");
}

/** Streams the header, then each page of lines as it is read: memory stays one page, whatever the count. */
export function csvStream(pages: AsyncIterable<CsvLine[]>): Readable {
  async function* rows() {
    yield `${CSV_BOM}${CSV_HEADER}\r\n`;
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

/** `attachment; filename="…"`: browsers save the export instead of showing it; unsafe characters become `_`. */
export function csvAttachment(name: string): string {
  return `attachment; filename="${name.replace(/[^A-Za-z0-9_.-]/g, "_")}.csv"`;
}
