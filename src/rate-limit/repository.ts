import { sql } from "kysely";
import type { Db } from "../db/schema.js";

/** Each hit's verdict, in the order given: allowed, the log's size and its oldest entry then. */
export interface HitsVerdict {
  allowed: boolean[];
  sizes: number[];
  oldest: (string | number | null)[];
  /** `api_key_version` as the same statement saw it (its snapshot is taken after every hit in it arrived). */
  key_version: string | number | null;
}

/**
 * One statement for a key's hits, decided one by one in arrival order under the row's lock
 * (`cts_rate_limit_hits`, 007_deal_counts.sql), and the key version authentication needs read beside
 * them: one round trip for both.
 */
export async function recordHits(
  db: Db,
  key: string,
  times: number[],
  limit: number,
  windowMs: number,
  expires: Date,
): Promise<HitsVerdict> {
  const r = await sql<HitsVerdict>`
      SELECT allowed, sizes, oldest, (SELECT version FROM api_key_version) AS key_version
      FROM cts_rate_limit_hits(${key}, ${times}::bigint[], ${limit}, ${windowMs}, ${expires})`.execute(db);
  return r.rows[0]!;
}

/** One statement, under the row's lock like every hit: the first `nowMs` of the key's log goes. */
export async function removeHit(db: Db, key: string, nowMs: number): Promise<void> {
  await sql`
      UPDATE rate_limits SET hits = hits[:array_position(hits, ${nowMs}::bigint) - 1]
                                 || hits[array_position(hits, ${nowMs}::bigint) + 1:]
      WHERE key = ${key} AND array_position(hits, ${nowMs}::bigint) IS NOT NULL`.execute(db);
}

/** Up to `batch` keys idle for a whole window, deleted; returns how many. */
export async function deleteExpiredLimits(db: Db, now: Date, batch: number): Promise<number> {
  const r = await sql`
      DELETE FROM rate_limits WHERE key IN (
        SELECT key FROM rate_limits WHERE expires_at < ${now} LIMIT ${batch} FOR UPDATE SKIP LOCKED)`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
