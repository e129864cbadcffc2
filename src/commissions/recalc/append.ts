import { sql } from "kysely";
import type { Db } from "../../db/schema.js";
import { divPow10, parse, plain } from "../calculate/fixed.js";
import { compareDealOrder } from "../calculate.js";
import { computeAppended, entriesIn } from "./compute.js";
import { type BucketKey, bucketId, type DesiredLine, type EntryRow, type PlanContext } from "./types.js";

/*
 * A bucket that only new deals join, each after every deal already in it (§5 order), needs none of its
 * stored lines recomputed: they keep their amounts, and the new lines need only two sums of the bucket —
 * the credit before them (prior attainment) and the amounts stored (the cap used, locked lines included).
 * So a create costs the same in an empty bucket and in one of thousands of deals. The sums stand for a full
 * recalculation only while the stored lines are what it would store: not while a recalculation job is
 * queued or running (until it finishes, reads show previous amounts), and then every bucket is recomputed
 * whole, as is any bucket with a stored deal at or after a new one (it moves: a deal earlier in the period).
 */

/** Buckets appended to since start-up; tests read it to know the fast path ran. */
export const appendCounter = { buckets: 0 };

interface BucketSums {
  user_id: string;
  plan_id: string;
  period: string;
  /** Σ arr_amount × percent of the stored deals (credit × 100, exact). */
  credit100: string;
  /** Σ stored amounts. */
  used: string;
  /** A stored deal comes at or after the first new one. */
  later: boolean;
}

async function recalculationPending(db: Db): Promise<boolean> {
  const { rows } = await sql<{ busy: boolean }>`
    SELECT EXISTS (SELECT 1 FROM jobs WHERE status IN ('queued', 'running') AND kind = 'recalculate') AS busy`.execute(
    db,
  );
  return rows[0]?.busy === true;
}

/** Per bucket, in one query: the stored deals' sums and whether any of them comes at or after `first`. */
async function bucketSums(
  db: Db,
  firsts: { key: BucketKey; close_date: string; created_at: string; id: string }[],
): Promise<Map<string, BucketSums>> {
  const input = firsts.map((f) => ({ ...f.key, close_date: f.close_date, created_at: f.created_at, id: f.id }));
  // created_at to the millisecond and ids as bytes: deal order as the engine compares them (compareDealOrder).
  const { rows } = await sql<BucketSums>`
    SELECT r.user_id, r.plan_id, r.period,
           COALESCE(SUM(e.credit100), 0)::text AS credit100, COALESCE(SUM(e.amount), 0)::text AS used,
           COALESCE(BOOL_OR(e.later), false) AS later
    FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
      AS r(user_id text, plan_id text, period text, close_date date, created_at timestamptz, id text)
    LEFT JOIN LATERAL (
      SELECT l.amount, d.arr_amount * s.percent AS credit100,
             (d.close_date, date_trunc('milliseconds', d.created_at), d.id COLLATE "C")
               >= (r.close_date, r.created_at, r.id COLLATE "C") AS later
      FROM commission_lines l
      JOIN deals d ON d.id = l.deal_id
      JOIN deal_splits s ON s.deal_id = l.deal_id AND s.user_id = l.user_id
      WHERE l.plan_id = r.plan_id AND l.user_id = r.user_id AND l.period = r.period AND l.kind = 'plan'
        AND l.status <> 'void' AND d.status <> 'rejected'
    ) e ON true
    GROUP BY r.user_id, r.plan_id, r.period`.execute(db);
  return new Map(rows.map((r) => [bucketId(r), r]));
}

/**
 * The lines of the candidate buckets (each joined only by unstored credits, `fresh`) that can be appended,
 * and the ids of those buckets; the others are left for a full recomputation.
 */
export async function appendToBuckets(
  db: Db,
  candidates: BucketKey[],
  fresh: EntryRow[],
  ctx: PlanContext,
): Promise<{ lines: DesiredLine[]; done: Set<string> }> {
  const done = new Set<string>();
  const lines: DesiredLine[] = [];
  if (candidates.length === 0 || (await recalculationPending(db))) return { lines, done };
  const joining = candidates.flatMap((key) => {
    const entries = entriesIn(key, fresh, ctx);
    if (entries.length === 0) return [];
    const first = entries.reduce((a, b) => (compareDealOrder(a.deal, b.deal) <= 0 ? a : b)).deal;
    return [{ key, entries, close_date: first.close_date, created_at: first.created_at, id: first.id }];
  });
  if (joining.length === 0) return { lines, done };
  const sums = await bucketSums(db, joining);
  for (const { key, entries } of joining) {
    const s = sums.get(bucketId(key));
    if (!s || s.later) continue;
    const before = { credit: plain(divPow10(parse(s.credit100), 2)), used: s.used };
    lines.push(...computeAppended(key, entries, ctx, before));
    done.add(bucketId(key));
    appendCounter.buckets++;
  }
  return { lines, done };
}
