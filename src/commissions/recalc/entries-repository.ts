import { sql } from "kysely";
import type { Db } from "../../db/schema.js";
import { rowsInBatches } from "../../db/sql.js";
import { turnIfDue } from "../../event-loop.js";
import { type FxExplanation, periodRange } from "../engine/index.js";
import { creditOf, type DealCols, rateOfExplanation, toEngineDeal } from "./inputs.js";
import { type BucketKey, bucketId, creditId, type EntryReader, type EntryRow } from "./types.js";

interface EntrySqlRow extends DealCols {
  user_id: string;
  percent: string;
  locked_plan_id: string | null;
  locked_period: string | null;
  locked_amount: string | null;
  locked_fx: FxExplanation | null;
}

/**
 * More users' buckets than this make a wide read: a bulk's ~800 buckets are ~23,000 entries, fetched
 * 2,000 at a time so that no one reply is decoded on the server's thread in one go (rowsInBatches).
 * One statement either way: the embedded database runs on its own thread (db/pglite-thread.ts), and
 * splitting the read by users (16 a statement) had cost the embedded ingest 40 % of its speed.
 */
const WIDE_READ_USERS = 16;

/**
 * Every non-rejected credit inside the buckets' date ranges, deduplicated per credit: one statement, so
 * its DISTINCT drops a deal found through two of a user's buckets (two plans, one period).
 */
export async function loadBucketEntries(db: Db, buckets: BucketKey[]): Promise<EntryRow[]> {
  if (buckets.length === 0) return [];
  const users = new Set(buckets.map((b) => b.user_id));
  return toEntries(await entryRowsOf(db, buckets, users.size > WIDE_READ_USERS));
}

/**
 * One read of bucket entries for several computations over the same buckets: a plan's impact prices its
 * pending lines and reprices its locked ones over the same people's buckets, and each had read them
 * (44,000 credits, 1.1–2.3 s each at bench/scale.mjs's size). A bucket is read the first time it is
 * asked for; each call answers every entry read so far, each credit once: a superset of what
 * `loadBucketEntries` would answer for its buckets, which is the same to a caller that places the entries
 * (`land`) and computes only its own buckets — an entry lands in a bucket only if its close date is in
 * that bucket's range, so any entry landing in one of the caller's buckets is one it asked for. The rows
 * (and their deals, which `attachRates` completes) are shared between the callers.
 */
export function sharedEntryReads(): EntryReader {
  const readBuckets = new Set<string>();
  const credits = new Set<string>();
  const entries: EntryRow[] = [];
  return async (db, buckets) => {
    const unread = buckets.filter((b) => !readBuckets.has(bucketId(b)));
    for (const entry of await loadBucketEntries(db, unread)) {
      if (credits.has(creditId(entry))) continue;
      credits.add(creditId(entry));
      entries.push(entry);
    }
    for (const b of unread) readBuckets.add(bucketId(b));
    return entries;
  };
}

async function entryRowsOf(db: Db, buckets: BucketKey[], wide: boolean): Promise<EntrySqlRow[]> {
  const ranges = buckets.map((b) => ({ user_id: b.user_id, ...periodRange(b.period) }));
  return rowsInBatches(
    db,
    sql<EntrySqlRow>`
    SELECT DISTINCT d.id, d.arr_amount, d.currency, d.deal_type, d.close_date, d.created_at, d.status,
           s.user_id, s.percent, l.plan_id AS locked_plan_id, l.period AS locked_period, l.amount AS locked_amount,
           l.explanation->'fx' AS locked_fx
    FROM jsonb_to_recordset(${JSON.stringify(ranges)}::jsonb) AS r(user_id text, "from" date, "to" date)
    JOIN deal_splits s ON s.user_id = r.user_id AND s.close_date BETWEEN r."from" AND r."to"
    JOIN deals d ON d.id = s.deal_id
    LEFT JOIN commission_lines l
      ON l.deal_id = s.deal_id AND l.user_id = s.user_id AND l.kind = 'plan' AND l.locked AND l.status <> 'void'
    WHERE d.status <> 'rejected'`,
    wide,
  );
}

async function toEntries(rows: EntrySqlRow[]): Promise<EntryRow[]> {
  const entries: EntryRow[] = [];
  for (const r of rows) {
    const deal = toEngineDeal(r);
    entries.push({
      deal,
      user_id: r.user_id,
      percent: r.percent,
      credit: creditOf(deal, r.user_id, r.percent),
      no_plan_reason: null,
      locked_plan_id: r.locked_plan_id,
      locked_period: r.locked_period,
      locked_amount: r.locked_amount,
      locked_fx: rateOfExplanation(r.locked_fx),
    });
    await turnIfDue(); // a wide batch reads tens of thousands of entries
  }
  return entries;
}
