// The "same rows" baselines: the rows a measured operation wrote, read back and written again with the
// cheapest raw SQL (one jsonb_to_recordset statement per table per group), no reads, no computation.
import { sql } from "kysely";

/** `column type` of each column of `table`, for jsonb_to_recordset. */
async function columnTypes(db, table) {
  const { rows } = await sql`
    SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
    FROM pg_attribute a
    WHERE a.attrelid = ${table}::regclass AND a.attnum > 0 AND NOT a.attisdropped
    ORDER BY a.attnum`.execute(db);
  return rows;
}

/** Splits every table's rows into `groups` consecutive parts: group k holds part k of each table. */
export function inGroups(rowsByTable, groups) {
  return Array.from({ length: groups }, (_, k) =>
    Object.fromEntries(
      Object.entries(rowsByTable).map(([table, rows]) => {
        const from = Math.floor((k * rows.length) / groups);
        const to = Math.floor(((k + 1) * rows.length) / groups);
        return [table, rows.slice(from, to)];
      }),
    ),
  );
}

/** Empty copies (`bench_<table>`: same columns, checks, defaults and indexes; no foreign keys, no triggers). */
export async function scratchCopies(db, tables) {
  for (const table of tables) {
    await sql`CREATE TABLE ${sql.table(`bench_${table}`)} (LIKE ${sql.table(table)} INCLUDING ALL)`.execute(db);
  }
}

/** INSERT … SELECT FROM jsonb_to_recordset($1) into `target`, every column of `source`'s shape. */
export async function rawInserter(db, source, target) {
  const cols = await columnTypes(db, source);
  const list = sql.join(cols.map((c) => sql.ref(c.name)));
  const typed = sql.raw(cols.map((c) => `"${c.name}" ${c.type}`).join(", "));
  return (tx, rows) =>
    rows.length === 0
      ? Promise.resolve()
      : sql`INSERT INTO ${sql.table(target)} (${list})
          SELECT ${list} FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(${typed})`.execute(tx);
}

/** UPDATE `table` SET every given column (but `id`) FROM jsonb_to_recordset($1) WHERE id matches. */
export async function rawUpdater(db, table, columns) {
  const types = new Map((await columnTypes(db, table)).map((c) => [c.name, c.type]));
  const set = sql.raw(
    columns
      .filter((c) => c !== "id")
      .map((c) => `"${c}" = v."${c}"`)
      .join(", "),
  );
  const typed = sql.raw(columns.map((c) => `"${c}" ${types.get(c)}`).join(", "));
  return (tx, rows) =>
    rows.length === 0
      ? Promise.resolve()
      : sql`UPDATE ${sql.table(table)} AS t SET ${set}
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(${typed})
          WHERE t.id = v.id`.execute(tx);
}
