import { sql } from "kysely";
import type { Kdb } from "../db/connect.js";
import { type Decision, decide, type RateLimitStore } from "./limiter.js";

/**
 * The sliding log in PostgreSQL: one atomic upsert per request. ON CONFLICT DO UPDATE locks the
 * key's row, so concurrent requests from any number of processes see each other's hits; every SET
 * expression reads the row as it was, so `allowed` is decided on the log before this request.
 */
export class PostgresStore implements RateLimitStore {
  constructor(private readonly db: Kdb) {}

  async hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<Decision> {
    const since = nowMs - windowMs;
    const expires = new Date(nowMs + windowMs);
    const r = await sql<{ allowed: boolean; hits: (string | number)[] }>`
      INSERT INTO rate_limits AS r (key, hits, allowed, expires_at)
      VALUES (${key}, ARRAY[${nowMs}::bigint], ${limit > 0}, ${expires})
      ON CONFLICT (key) DO UPDATE SET
        allowed = (SELECT count(*) FROM unnest(r.hits) AS h WHERE h > ${since}) < ${limit},
        hits = CASE
          WHEN (SELECT count(*) FROM unnest(r.hits) AS h WHERE h > ${since}) < ${limit}
            THEN ARRAY(SELECT h FROM unnest(r.hits) AS h WHERE h > ${since} ORDER BY h) || ${nowMs}::bigint
          ELSE ARRAY(SELECT h FROM unnest(r.hits) AS h WHERE h > ${since} ORDER BY h)
        END,
        expires_at = ${expires}
      RETURNING allowed, hits`.execute(this.db);
    const row = r.rows[0]!;
    return decide(row.hits.map(Number), limit, windowMs, nowMs, row.allowed);
  }

  /** Retention: forget keys idle for a whole window. */
  async purgeExpired(now: Date, batch = 1000): Promise<number> {
    const r = await sql`
      DELETE FROM rate_limits WHERE key IN (
        SELECT key FROM rate_limits WHERE expires_at < ${now} LIMIT ${batch} FOR UPDATE SKIP LOCKED)`.execute(this.db);
    return Number(r.numAffectedRows ?? 0);
  }
}
