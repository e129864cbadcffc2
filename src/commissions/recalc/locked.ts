import { sql } from "kysely";
import type { Db } from "../../db/schema.js";
import { noPlanExplanation, type PlanInput } from "../calculate.js";
import { bucketOf, computeBucket, isMatch, matchCredit, uniqueBuckets } from "./compute.js";
import { type DealCols, loadBucketEntries, toEngineDeal } from "./load.js";
import { loadPlanContext } from "./load-terms.js";
import { type BucketKey, type CreditRow, creditId, type EntryRow, type PlanContext } from "./types.js";

/*
 * A plan change's effect on locked history (API.md §12): each locked plan line of the plan is priced as
 * if no line were locked — its whole (user, plan, period) bucket recomputed in deal order under the new
 * terms, §5 otherwise unchanged. Nothing is written here; retroactive adjustments are the difference.
 */

/** A locked plan line as it stands: its amount plus the retroactive corrections already made to it. */
export interface LockedLine {
  id: string;
  deal_id: string;
  user_id: string;
  period: string;
  status: string;
  plan_version: number | null;
  /** Stored amount + its retroactive corrections + the deal's dispute resolutions for the user: what the rep is owed for it today. */
  amount: string;
}

export interface LockedRepricing {
  line: LockedLine;
  /** Its amount under the new terms (cents). */
  after: string;
  explanation: Record<string, unknown>;
}

type LockedRow = LockedLine & Omit<DealCols, "id" | "status"> & { deal_status: DealCols["status"]; percent: string };

/** The plan's locked, non-void plan lines with their credits (optionally only these users'). */
async function loadLockedLines(
  db: Db,
  planId: string,
  users?: string[],
): Promise<{ line: LockedLine; credit: CreditRow }[]> {
  const { rows } = await sql<LockedRow>`
    SELECT l.id, l.deal_id, l.user_id, l.period, l.status, l.plan_version,
           (l.amount + COALESCE((
              SELECT SUM(a.amount) FROM commission_lines a
              WHERE a.adjusts_line_id = l.id
                 OR (a.deal_id = l.deal_id AND a.user_id = l.user_id AND a.kind = 'adjustment'
                     AND a.status <> 'void' AND a.explanation ? 'dispute')), 0))::text AS amount,
           d.status AS deal_status, d.arr_amount, d.currency, d.deal_type, d.close_date, d.created_at, s.percent
    FROM commission_lines l
    JOIN deals d ON d.id = l.deal_id
    JOIN deal_splits s ON s.deal_id = l.deal_id AND s.user_id = l.user_id
    WHERE l.plan_id = ${planId} AND l.kind = 'plan' AND l.locked AND l.status <> 'void'
      ${users ? sql`AND l.user_id = ANY(${users}::text[])` : sql``}
    ORDER BY l.id`.execute(db);
  return rows.map(({ deal_status, arr_amount, currency, deal_type, close_date, created_at, percent, ...line }) => {
    const deal = toEngineDeal({
      id: line.deal_id,
      status: deal_status,
      arr_amount,
      currency,
      deal_type,
      close_date,
      created_at,
    });
    return { line, credit: { deal, user_id: line.user_id, percent, credit: "0", no_plan_reason: null } };
  });
}

/**
 * The computation behind what each line pays now, by id: its own explanation, or for a line already
 * corrected retroactively the latest correction's `after` (old = line + corrections was computed there).
 */
export async function currentExplanations(db: Db, ids: string[]): Promise<Map<string, unknown>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: string; explanation: unknown }>`
    SELECT l.id, COALESCE(
             (SELECT a.explanation -> 'retroactive' -> 'after' -> 'explanation' FROM commission_lines a
              WHERE a.adjusts_line_id = l.id
              ORDER BY (a.explanation -> 'retroactive' ->> 'to_version')::int DESC, a.created_at DESC, a.id DESC
              LIMIT 1),
             l.explanation) AS explanation
    FROM commission_lines l WHERE l.id = ANY(${ids}::text[])`.execute(db);
  return new Map(rows.map((r) => [r.id, r.explanation]));
}

function assignedOn(ctx: PlanContext, userId: string, planId: string, date: string): boolean {
  return (ctx.assignments.get(userId) ?? []).some(
    (a) => a.plan_id === planId && a.effective_from <= date && (a.effective_to === null || date <= a.effective_to),
  );
}

/**
 * Every locked plan line of `planId` priced under `plan` (the plan's new terms) as if nothing were
 * locked. A line whose credit no longer earns under the plan (dates, currency, assignment) is priced at
 * 0.00, explained by the reason. `users` limits the work to those users (a job batch).
 */
export async function repriceLockedLines(db: Db, plan: PlanInput, users?: string[]): Promise<LockedRepricing[]> {
  const locked = await loadLockedLines(db, plan.id, users);
  if (locked.length === 0) return [];
  // The status is not one of the terms: locked lines were earned while the plan was active, and
  // archiving it (or new terms on an archived plan) must not read as "this plan never paid".
  const asEarned: PlanInput = { ...plan, status: "active" };
  const userIds = [...new Set(locked.map((l) => l.line.user_id))];
  const ctx = await loadPlanContext(db, userIds, new Map([[plan.id, asEarned]]));
  const out: LockedRepricing[] = [];
  const buckets: BucketKey[] = [];
  const wanted = new Map<string, LockedLine>();
  for (const { line, credit } of locked) {
    // A line whose assignment to this plan has ended or moved since it was earned is not this edit's
    // to correct: a rate change must not claw back what an assignment change never touched.
    if (!assignedOn(ctx, credit.user_id, plan.id, credit.deal.close_date)) continue;
    // Only the match is needed here (user, close date, currency); the bucket prices the credit.
    const match = matchCredit(credit, ctx);
    if (isMatch(match) && match.plan.id === plan.id) {
      buckets.push(bucketOf(credit, match));
      wanted.set(creditId(credit), line);
    } else {
      const reason = isMatch(match)
        ? `the credit now earns under plan ${match.plan.id} (assignment in force on ${credit.deal.close_date})`
        : match.reason;
      out.push({ line, after: "0.00", explanation: { ...noPlanExplanation(reason) } });
    }
  }
  const keys = uniqueBuckets(buckets);
  const entriesOf = new Map<string, EntryRow[]>();
  for (const e of await loadBucketEntries(db, keys)) {
    const list = entriesOf.get(e.user_id);
    if (list) list.push(e);
    else entriesOf.set(e.user_id, [e]);
  }
  for (const key of keys) {
    for (const computed of computeBucket(key, entriesOf.get(key.user_id) ?? [], ctx, true)) {
      const line = wanted.get(creditId({ deal: { id: computed.deal_id }, user_id: computed.user_id }));
      if (line) out.push({ line, after: computed.amount, explanation: computed.explanation });
    }
  }
  return out;
}
