import { sql } from "kysely";
import type { Db } from "../db/schema.js";

// The SQL of the weekly digest: who gets it, and their team's figures for one week.

export interface DigestManager {
  user_id: string;
  email: string;
  name: string;
}

/**
 * Claims a week for this transaction: false when it was already composed (by another worker, or before
 * a restart). A concurrent claimer waits on the key until this transaction ends, then gets false.
 */
export async function claimDigestWeek(db: Db, week: string, now: Date): Promise<boolean> {
  const result = await sql`INSERT INTO notification_digest_weeks (week, queued, created_at)
    VALUES (${week}, 0, ${now}) ON CONFLICT (week) DO NOTHING`.execute(db);
  return Number(result.numAffectedRows ?? 0n) > 0;
}

export async function recordDigestWeek(db: Db, week: string, queued: number): Promise<void> {
  await sql`UPDATE notification_digest_weeks SET queued = ${queued} WHERE week = ${week}`.execute(db);
}

/** Active people with at least one active report who turned the digest on (it is off by default). */
export async function digestManagers(db: Db): Promise<DigestManager[]> {
  const { rows } = await sql<DigestManager>`
    SELECT u.id AS user_id, u.email, u.name FROM users u
    WHERE u.active
      AND EXISTS (SELECT 1 FROM users r WHERE r.manager_id = u.id AND r.active)
      AND EXISTS (SELECT 1 FROM notification_preferences np
        WHERE np.user_id = u.id AND np.kind = 'weekly_digest' AND np.enabled)
    ORDER BY u.id`.execute(db);
  return rows;
}

/** One bucket's deals in one currency: how many, and the sum of their arr_amount (exact decimal text). */
export interface DigestRow {
  bucket: "approved" | "rejected" | "pending";
  currency: string;
  deals: number;
  amount: string;
}

export interface TeamWeek {
  reports: number;
  rows: DigestRow[];
  open_disputes: number;
}

/**
 * A manager's team (everyone below them in `manager_id`, not themself) and its deals (those crediting
 * someone of the team): approved in [from, to), rejected in [from, to) (its `deal.rejected` event) and
 * still rejected, pending now;
 * the open disputes on those deals.
 */
export async function teamWeek(db: Db, managerId: string, from: Date, to: Date): Promise<TeamWeek> {
  const team = sql`WITH RECURSIVE tree(id) AS (
      SELECT id FROM users WHERE manager_id = ${managerId}
      UNION
      SELECT u.id FROM users u JOIN tree t ON u.manager_id = t.id
    ),
    team AS (SELECT id FROM tree WHERE id <> ${managerId}),
    team_deals AS (
      SELECT d.id, d.status, d.currency, d.arr_amount, d.approved_at FROM deals d
      WHERE EXISTS (SELECT 1 FROM deal_splits s WHERE s.deal_id = d.id AND s.user_id IN (SELECT id FROM team))
    )`;
  const { rows } = await sql<DigestRow>`${team}
    SELECT 'approved' AS bucket, currency, count(*)::int AS deals, sum(arr_amount)::text AS amount FROM team_deals
      WHERE approved_at >= ${from} AND approved_at < ${to} GROUP BY currency
    UNION ALL
    SELECT 'rejected', currency, count(*)::int, sum(arr_amount)::text FROM team_deals
      WHERE status = 'rejected' AND id IN (SELECT e.data->'object'->>'id' FROM events e
        WHERE e.type = 'deal.rejected' AND e.created_at >= ${from} AND e.created_at < ${to}) GROUP BY currency
    UNION ALL
    SELECT 'pending', currency, count(*)::int, sum(arr_amount)::text FROM team_deals
      WHERE status = 'pending' GROUP BY currency
    ORDER BY 1, 2`.execute(db);
  const counts = await sql<{ reports: number; open_disputes: number }>`${team}
    SELECT (SELECT count(*)::int FROM team t JOIN users u ON u.id = t.id WHERE u.active) AS reports,
      (SELECT count(*)::int FROM disputes x WHERE x.status = 'open'
        AND x.deal_id IN (SELECT id FROM team_deals)) AS open_disputes`.execute(db);
  const { reports = 0, open_disputes = 0 } = counts.rows[0] ?? {};
  return { reports, rows, open_disputes };
}
