import { minorUnits } from "../../lib/money.js";

/**
 * What a CSV row reads of a commission line (the API's `Commission` fits it). Written out rather than
 * imported, so the server's unit test can compare this file with the API's own CSV writer.
 */
interface Line {
  id: string;
  deal_id: string | null;
  user_id: string;
  kind: string;
  period: string;
  amount: number;
  currency: string;
  status: string;
  plan_id: string | null;
  spiff_id: string | null;
  calculated_at: string;
  explanation: { summary?: unknown };
}

/** The API's commission CSV header (API.md §4 Commissions), so a payout export reads like GET /commissions'. */
export const CSV_HEADER =
  "id,deal_id,user_id,kind,period,amount,status,plan_id,spiff_id,calculated_at,explanation_summary,currency";

/** RFC 4180: a field with a comma, quote, CR or LF is quoted, its quotes doubled (as the API writes it). */
function field(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A text cell a spreadsheet would run as a formula gets a leading apostrophe, as the API's export does. */
function textField(value: string): string {
  return field(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

function row(line: Line): string {
  const summary = typeof line.explanation.summary === "string" ? line.explanation.summary : "";
  const before = [line.id, line.deal_id ?? "", line.user_id, line.kind, line.period].map(textField);
  const after = [line.status, line.plan_id ?? "", line.spiff_id ?? "", line.calculated_at, summary, line.currency].map(
    textField,
  );
  // The API's amounts have at most their currency's decimals (API.md §15): toFixed at those writes them
  // exactly, as the API's CSV does.
  return [...before, line.amount.toFixed(minorUnits(line.currency)), ...after].join(",");
}

/** The lines as the API's CSV writes them: a UTF-8 BOM, the header, CRLF after every record. */
export function linesCsv(lines: readonly Line[]): string {
  return `\uFEFF${[CSV_HEADER, ...lines.map(row)].map((r) => `${r}\r\n`).join("")}`;
}
