import { sql } from "kysely";
import type { Tx } from "../context.js";

/**
 * INSERT … SELECT FROM jsonb_to_recordset($1): any number of rows in one statement with one parameter.
 * Far cheaper than a multi-row VALUES list of thousands of parameters (PGlite especially), and typed by
 * the column list, so numeric and date text lands exactly.
 */
export async function insertRecords(
  tx: Tx,
  table: string,
  columns: Record<string, string>,
  rows: Record<string, unknown>[],
  chunk = 2000,
): Promise<void> {
  const names = Object.keys(columns);
  const list = sql.join(names.map((n) => sql.ref(n)));
  const typed = sql.raw(names.map((n) => `"${n}" ${columns[n]}`).join(", "));
  for (let i = 0; i < rows.length; i += chunk) {
    const json = JSON.stringify(rows.slice(i, i + chunk));
    await sql`INSERT INTO ${sql.table(table)} (${list})
      SELECT ${list} FROM jsonb_to_recordset(${json}::jsonb) AS v(${typed})`.execute(tx);
  }
}
