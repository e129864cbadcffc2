import { sql } from "kysely";
import type { Db } from "../../db/schema.js";
import { mapTurning, turnIfDue } from "../../event-loop.js";
import type { JobKind } from "../../jobs/kinds.js";
import { type BucketEntry, compareDealOrder } from "../engine/index.js";
import { byBucket, computeAppended, land } from "./compute.js";
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

const RECALC: JobKind = "recalculate";

interface BucketSums {
  user_id: string;
  plan_id: string;
  period: string;
  /** Σ credit of the stored deals (prior attainment after them). */
  credit: string;
  /** Σ stored amounts. */
  used: string;
  /** A stored deal comes at or after the first new one. */
  later: boolean;
  /**
   * A stored line states no credit (never expected), or a converted one (§15: its credit is a fraction in
   * the plan's currency): then the bucket is recomputed.
   */
  unexplained: boolean;
}

async function recalculationPending(db: Db): Promise<boolean> {
  const { rows } = await sql<{ busy: boolean }>`
    SELECT EXISTS (SELECT 1 FROM jobs WHERE status IN ('queued', 'running') AND kind = ${RECALC}) AS busy`.execute(db);
  return rows[0]?.busy === true;
}

/**
 * Per bucket, in one query: the stored lines' sums and whether a stored deal comes at or after `first`.
 * The credit is the one each stored line's explanation states (exact; the deal's own while the line is
 * what a recalculation would store, which `appendToBuckets` requires), so the sums read only the lines;
 * the order check walks the user's credits from the first new close_date on (deal_splits_user_idx), so
 * it reads only the deals that could come after.
 */
async function bucketSums(
  db: Db,
  firsts: { key: BucketKey; close_date: string; created_at: string; id: string }[],
): Promise<Map<string, BucketSums>> {
  const input = firsts.map((f) => ({ ...f.key, close_date: f.close_date, created_at: f.created_at, id: f.id }));
  // created_at to the millisecond and ids as bytes: deal order as the engine compares them (compareDealOrder).
  // A converted credit ("25175/23") is no numeric: CASE keeps the cast off it (the bucket is then recomputed whole).
  const { rows } = await sql<BucketSums>`
    SELECT r.user_id, r.plan_id, r.period, sums.credit::text AS credit, sums.used::text AS used,
      sums.unexplained > 0 AS unexplained,
      EXISTS (
        SELECT 1 FROM deal_splits s
        JOIN deals d ON d.id = s.deal_id
        JOIN commission_lines l ON l.deal_id = s.deal_id AND l.user_id = s.user_id AND l.kind = 'plan'
        WHERE s.user_id = r.user_id AND s.close_date >= r.close_date AND d.status <> 'rejected'
          AND l.plan_id = r.plan_id AND l.period = r.period AND l.status <> 'void'
          AND (d.close_date, date_trunc('milliseconds', d.created_at), d.id COLLATE "C")
              >= (r.close_date, r.created_at, r.id COLLATE "C")
      ) AS later
    FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
      AS r(user_id text, plan_id text, period text, close_date date, created_at timestamptz, id text)
    CROSS JOIN LATERAL (
      SELECT COALESCE(SUM(CASE WHEN l.explanation->'fx' IS NULL THEN (l.explanation->>'credit')::numeric END), 0)
               AS credit, COALESCE(SUM(l.amount), 0) AS used,
             COUNT(*) FILTER (WHERE l.explanation->>'credit' IS NULL OR l.explanation->'fx' IS NOT NULL) AS unexplained
      FROM commission_lines l
      WHERE l.plan_id = r.plan_id AND l.user_id = r.user_id AND l.period = r.period AND l.kind = 'plan'
        AND l.status <> 'void'
    ) sums`.execute(db);
  return new Map(rows.map((r) => [bucketId(r), r]));
}

/**
 * The lines of the candidate buckets (each joined only by unstored credits, `fresh`) that can be appended,
 * and the ids of those buckets; the others are left for a full recomputation.
 */
/** A bucket the new rows join: its entries and the first of them in deal order. */
interface Joining {
  key: BucketKey;
  entries: BucketEntry[];
  close_date: string;
  created_at: string;
  id: string;
}

export async function appendToBuckets(
  db: Db,
  candidates: BucketKey[],
  fresh: EntryRow[],
  ctx: PlanContext,
): Promise<{ lines: DesiredLine[]; done: Set<string> }> {
  const done = new Set<string>();
  const lines: DesiredLine[] = [];
  if (candidates.length === 0 || (await recalculationPending(db))) return { lines, done };
  // Each row placed once, each candidate taking its bucket's: scanning all of `fresh` per bucket was
  // quadratic (a bulk of 1,000 over 200 reps held the event loop ~0.1 s here).
  const placed = byBucket(await mapTurning(fresh, (row) => land(row, ctx)));
  const joining: Joining[] = [];
  for (const key of candidates) {
    const entries = placed.get(bucketId(key)) ?? [];
    // A converted credit is summed exactly only by the whole bucket's run (one scale for every entry).
    if (entries.length === 0 || entries.some((e) => e.fx)) continue;
    const first = entries.reduce((a, b) => (compareDealOrder(a.deal, b.deal) <= 0 ? a : b)).deal;
    joining.push({ key, entries, close_date: first.close_date, created_at: first.created_at, id: first.id });
    await turnIfDue();
  }
  if (joining.length === 0) return { lines, done };
  const sums = await bucketSums(db, joining);
  for (const { key, entries } of joining) {
    const s = sums.get(bucketId(key));
    if (!s || s.later || s.unexplained) continue;
    const before = { credit: s.credit, used: s.used };
    lines.push(...computeAppended(key, entries, ctx, before));
    done.add(bucketId(key));
    appendCounter.buckets++;
    await turnIfDue();
  }
  return { lines, done };
}
