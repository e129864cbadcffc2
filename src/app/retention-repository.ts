import { sql } from "kysely";
import type { Db } from "../db/schema.js";

// The SQL of retention (retention.ts): batched deletes of what is past its keeping time, and the
// embedded database's VACUUM.

const BATCH = 5000;

/** Rows of `table` whose `column` is before the cutoff (and match `where`, SQL of the rule's own) are deleted. */
export interface RetentionRule {
  table: string;
  column: string;
  where?: string;
}

/** Deletes the rule's rows older than `cutoff` in batches of 5,000, each its own statement; returns how many. */
export async function purge(db: Db, rule: RetentionRule, cutoff: Date): Promise<number> {
  const extra = rule.where ? sql.raw(` AND ${rule.where}`) : sql``;
  let total = 0;
  for (;;) {
    const r = await sql`
      DELETE FROM ${sql.table(rule.table)} WHERE ctid IN (
        SELECT ctid FROM ${sql.table(rule.table)} WHERE ${sql.ref(rule.column)} < ${cutoff}${extra} LIMIT ${BATCH})`.execute(
      db,
    );
    const n = Number(r.numAffectedRows ?? 0);
    total += n;
    if (n < BATCH) return total;
  }
}

/** VACUUM (ANALYZE) of one table: what autovacuum would do (PGlite runs none). */
export async function vacuumAnalyze(db: Db, table: string): Promise<void> {
  await sql`VACUUM (ANALYZE) ${sql.table(table)}`.execute(db);
}
