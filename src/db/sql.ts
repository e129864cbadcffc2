import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";
import type { PgColumns } from "./column-types.js";
import { isEmbedded } from "./embedded.js";
import { jsonArray } from "./json.js";
import type { DB, Db } from "./schema.js";

/** Generic statements: list parameters, and many rows written with one parameter. */

type Table = keyof DB & string;

/** `column = ANY(array)`: one parameter however long the list (pg and PGlite both take arrays). */
export function anyOf(column: string, values: string[]): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} = ANY(${values}::text[])`;
}

/** A time as RFC 3339 UTC text with milliseconds, as toIso writes it. */
export const isoText = (value: RawBuilder<unknown>) =>
  sql`to_char(${value} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// Characters no id or time text holds: textArray's separator, and its mark of a null.
const SEPARATOR = "\u001f";
const NULL_MARK = "\u001e";

/**
 * `values` as a text[] sent as one text parameter (null as NULL): node-postgres writes an array
 * parameter element by element on the event loop, which for a run's 500,000 deal ids held it for over a
 * second. For ids and times: an empty value, or one holding U+001E or U+001F, is refused.
 */
export function textArray(values: readonly (string | null)[]): RawBuilder<string[]> {
  if (values.some((v) => v === "" || v?.includes(SEPARATOR) || v?.includes(NULL_MARK))) {
    throw new Error("textArray takes ids and times: no empty value, no U+001E or U+001F");
  }
  const text = values.map((v) => v ?? NULL_MARK).join(SEPARATOR);
  return sql<string[]>`string_to_array(${text}::text, ${SEPARATOR}, ${NULL_MARK})`;
}

/** Any of `columns` contains `text`, case-insensitively; `%`, `_` and `\` in `text` match themselves. */
export function containsText(columns: string[], text: string): Expression<SqlBool> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`(${sql.join(
    columns.map((c) => sql`${sql.ref(c)} ILIKE ${pattern}`),
    sql` OR `,
  )})`;
}

/** `v(col type, …)`: the record type `jsonb_to_recordset` reads the rows as. */
function recordType(columns: Record<string, string>, names: string[]) {
  return sql.raw(names.map((n) => `"${n}" ${columns[n]}`).join(", "));
}

/**
 * INSERT … SELECT FROM jsonb_to_recordset($1): any number of rows in one statement with one parameter.
 * Far cheaper than a multi-row VALUES list of thousands of parameters (PGlite especially), and typed by
 * the column list, so numeric and date text lands exactly. Rows are given as JSON text.
 */
export async function insertJsonRows<T extends Table>(
  db: Db,
  table: T,
  columns: PgColumns<DB[T]>,
  rowsJson: string[],
  chunk = 5000,
): Promise<void> {
  const names = Object.keys(columns);
  const list = sql.join(names.map((n) => sql.ref(n)));
  const typed = recordType(columns, names);
  for (let i = 0; i < rowsJson.length; i += chunk) {
    await sql`INSERT INTO ${sql.table(table)} (${list})
      SELECT ${list} FROM jsonb_to_recordset(${jsonArray(rowsJson.slice(i, i + chunk))}::jsonb) AS v(${typed})`.execute(
      db,
    );
  }
}

/** `insertJsonRows` for rows given as objects. */
export function insertRecords<T extends Table>(
  db: Db,
  table: T,
  columns: PgColumns<DB[T]>,
  rows: Record<string, unknown>[],
  chunk?: number,
): Promise<void> {
  return insertJsonRows(
    db,
    table,
    columns,
    rows.map((r) => JSON.stringify(r)),
    chunk,
  );
}

/** UPDATE … FROM jsonb_to_recordset($1): sets `set` on the rows whose `key` matches, one statement for all. */
export async function updateRecords<T extends Table>(
  db: Db,
  table: T,
  columns: PgColumns<DB[T]>,
  key: keyof DB[T] & string,
  set: (keyof DB[T] & string)[],
  rows: Record<string, unknown>[],
): Promise<void> {
  const assignments = sql.join(set.map((c) => sql`${sql.ref(c)} = v.${sql.ref(c)}`));
  await sql`
    UPDATE ${sql.table(table)} AS t SET ${assignments}
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(${recordType(columns, [key, ...set])})
    WHERE t.${sql.ref(key)} = v.${sql.ref(key)}`.execute(db);
}

let cursors = 0;

/**
 * The rows of a read, `batch` at a time on PostgreSQL when it is `wide` (the caller's call: a bulk's or a
 * plan's users, not one deal's). node-postgres parses whatever PostgreSQL has sent in one go: a bulk's
 * 23,000 bucket entries held the process 50–95 ms in which no other request was answered (issue #19, no
 * stall). A wide read inside a transaction runs once, as a cursor fetched `batch` rows at a time (two
 * statements more than a plain read: not worth it for a narrow one); outside a transaction, or embedded
 * (whose thread sends a long reply in parts itself: db/pglite-worker.mjs), it runs as one statement.
 */
export async function rowsInBatches<R>(db: Db, query: RawBuilder<R>, wide: boolean, batch = 2000): Promise<R[]> {
  if (!wide || isEmbedded() || !db.isTransaction) return (await query.execute(db)).rows;
  const cursor = sql.raw(`cts_rows_${++cursors}`);
  await sql`DECLARE ${cursor} NO SCROLL CURSOR FOR ${query}`.execute(db);
  const rows: R[] = [];
  for (;;) {
    const part = await sql<R>`FETCH FORWARD ${sql.lit(batch)} FROM ${cursor}`.execute(db);
    for (const row of part.rows) rows.push(row);
    if (part.rows.length < batch) break;
  }
  await sql`CLOSE ${cursor}`.execute(db);
  return rows;
}
