import { sql } from "kysely";
import type { Tx } from "../context.js";

/** JSON text of `fields` plus `key`, whose value is already JSON text (serialized once, reused). */
export function withRawJson(fields: object, key: string, rawJson: string): string {
  const json = JSON.stringify(fields);
  return `${json.slice(0, -1)}${json === "{}" ? "" : ","}${JSON.stringify(key)}:${rawJson}}`;
}

export function jsonArray(itemsJson: string[]): string {
  return `[${itemsJson.join(",")}]`;
}

/**
 * INSERT … SELECT FROM jsonb_to_recordset($1): any number of rows in one statement with one parameter.
 * Far cheaper than a multi-row VALUES list of thousands of parameters (PGlite especially), and typed by
 * the column list, so numeric and date text lands exactly. Rows are given as JSON text.
 */
export async function insertJsonRows(
  tx: Tx,
  table: string,
  columns: Record<string, string>,
  rowsJson: string[],
  chunk = 2000,
): Promise<void> {
  const names = Object.keys(columns);
  const list = sql.join(names.map((n) => sql.ref(n)));
  const typed = sql.raw(names.map((n) => `"${n}" ${columns[n]}`).join(", "));
  for (let i = 0; i < rowsJson.length; i += chunk) {
    await sql`INSERT INTO ${sql.table(table)} (${list})
      SELECT ${list} FROM jsonb_to_recordset(${jsonArray(rowsJson.slice(i, i + chunk))}::jsonb) AS v(${typed})`.execute(
      tx,
    );
  }
}

/** `insertJsonRows` for rows given as objects. */
export function insertRecords(
  tx: Tx,
  table: string,
  columns: Record<string, string>,
  rows: Record<string, unknown>[],
  chunk = 2000,
): Promise<void> {
  return insertJsonRows(
    tx,
    table,
    columns,
    rows.map((r) => JSON.stringify(r)),
    chunk,
  );
}
