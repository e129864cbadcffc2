import { sql } from "kysely";
import type { Db } from "../../db/schema.js";
import { type DealCols, toEngineDeal } from "./inputs.js";
import type { CreditRow, LockedLine } from "./types.js";

// The reads behind repricing locked history (reprice.ts) and the retroactive corrections.

type LockedRow = LockedLine & Omit<DealCols, "id" | "status"> & { deal_status: DealCols["status"]; percent: string };

/**
 * The plan's locked, non-void plan lines with their credits (optionally only these users'). A line's
 * adjustments are found by its credit through commission_lines_adjustment_idx (migration 026): a
 * retroactive correction (`adjusts_line_id`) is an adjustment line of the same deal and user as the line
 * it corrects (lines/retroactive.ts), so both kinds are among the credit's adjustment lines.
 */
export async function loadLockedLines(
  db: Db,
  planId: string,
  users?: string[],
): Promise<{ line: LockedLine; credit: CreditRow }[]> {
  const { rows } = await sql<LockedRow>`
    SELECT l.id, l.deal_id, l.user_id, l.period, l.status, l.plan_version,
           (l.amount + COALESCE((
              SELECT SUM(a.amount) FROM commission_lines a
              WHERE a.kind = 'adjustment' AND a.deal_id = l.deal_id AND a.user_id = l.user_id
                AND (a.adjusts_line_id = l.id OR (a.status <> 'void' AND a.explanation ? 'dispute'))), 0))::text AS amount,
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

/**
 * The plan's lines of every status and whether the plan is active: how many lines an edit of it
 * recomputes, about (its pending lines recalculated, its locked ones repriced; void ones too, a bound).
 * Counted in commission_lines_bucket_idx alone, an index-only scan where the visibility map is current
 * (autovacuum keeps it so: migration 024); counting the locked lines by their status had read each one's
 * heap page (44,000 at bench/scale.mjs's size: 0.25–0.79 s).
 */
export async function countPlanLines(db: Db, planId: string): Promise<{ lines: number; active: boolean }> {
  const { rows } = await sql<{ lines: number; status: string | null }>`
    SELECT (SELECT count(*) FROM commission_lines WHERE plan_id = ${planId} AND kind = 'plan')::int AS lines,
           (SELECT status FROM comp_plans WHERE id = ${planId}) AS status`.execute(db);
  return { lines: Number(rows[0]?.lines ?? 0), active: rows[0]?.status === "active" };
}
