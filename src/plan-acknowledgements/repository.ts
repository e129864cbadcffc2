import { sql } from "kysely";
import type { Tx } from "../context.js";
import type { Db } from "../db/schema.js";

// The SQL of plan acknowledgements: rows written by migration 022's triggers (an assignment, a new
// version), the terms of the version acknowledged, and the acknowledgement itself.

export interface AcknowledgementRow {
  id: string;
  user_id: string;
  user_name: string;
  plan_id: string;
  plan_name: string;
  plan_version: number;
  document_sha256: string | null;
  acknowledged_at: Date | null;
  created_at: Date;
}

export interface VersionTerms {
  plan_name: string;
  plan_kind: string;
  currency: string;
  period: string;
  quota: string | null;
  base_rate: string | null;
  tiers: { from_attainment: number; rate: number }[];
  deal_type_multipliers: Record<string, number>;
  min_deal_amount: string | null;
  cap_per_period: string | null;
  clawback: { window_days: number; percent: number; proration: string } | null;
  override_levels: { depth: number; rate: number }[] | null;
  effective_from: string;
  effective_to: string | null;
}

const columns = sql`a.id, a.user_id, u.name AS user_name, a.plan_id, p.name AS plan_name, a.plan_version,
  a.document_sha256, a.acknowledged_at, a.created_at`;

export async function listAcknowledgements(
  db: Db,
  filter: { userIds: string[] | null; status?: "pending" | "acknowledged" | undefined; userId?: string | undefined },
  limit: number,
  offset: number,
): Promise<{ rows: AcknowledgementRow[]; total: number }> {
  const status = filter.status ?? null;
  const where = sql`(${status}::text IS NULL OR (${status} = 'pending') = (a.acknowledged_at IS NULL))
    AND (${filter.userId ?? null}::text IS NULL OR a.user_id = ${filter.userId ?? null})
    ${filter.userIds === null ? sql`` : filter.userIds.length === 0 ? sql`AND false` : sql`AND a.user_id IN (${sql.join(filter.userIds)})`}`;
  const { rows } = await sql<AcknowledgementRow>`
    SELECT ${columns} FROM plan_acknowledgements a JOIN users u ON u.id = a.user_id JOIN comp_plans p ON p.id = a.plan_id
    WHERE ${where} ORDER BY a.created_at DESC, a.id DESC LIMIT ${limit} OFFSET ${offset}`.execute(db);
  const count = await sql<{ n: string }>`
    SELECT count(*) AS n FROM plan_acknowledgements a WHERE ${where}`.execute(db);
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

export async function findAcknowledgement(db: Db, id: string, lock = false): Promise<AcknowledgementRow | undefined> {
  const { rows } = await sql<AcknowledgementRow>`
    SELECT ${columns} FROM plan_acknowledgements a JOIN users u ON u.id = a.user_id JOIN comp_plans p ON p.id = a.plan_id
    WHERE a.id = ${id} ${lock ? sql`FOR UPDATE OF a` : sql``}`.execute(db);
  return rows[0];
}

export async function versionTerms(db: Db, planId: string, version: number): Promise<VersionTerms | undefined> {
  const { rows } = await sql<VersionTerms>`
    SELECT p.name AS plan_name, p.kind AS plan_kind, v.currency, v.period, v.quota::text AS quota,
      v.base_rate::text AS base_rate, v.tiers, v.deal_type_multipliers, v.min_deal_amount::text AS min_deal_amount,
      v.cap_per_period::text AS cap_per_period, v.clawback, v.override_levels,
      v.effective_from::text AS effective_from, v.effective_to::text AS effective_to
    FROM comp_plan_versions v JOIN comp_plans p ON p.id = v.plan_id
    WHERE v.plan_id = ${planId} AND v.version = ${version}`.execute(db);
  return rows[0];
}

export async function markAcknowledged(tx: Tx, id: string, sha256: string, at: Date): Promise<void> {
  await sql`UPDATE plan_acknowledgements SET acknowledged_at = ${at}, document_sha256 = ${sha256}
    WHERE id = ${id}`.execute(tx);
}

/** A request written by this transaction's trigger, with whom to tell. */
export interface NewRequestRow {
  id: string;
  user_id: string;
  email: string;
  name: string;
  plan_name: string;
  plan_version: number;
}

/**
 * The pending requests of a plan the triggers wrote at `at` (this write's time: a request already there
 * for the same version was left as it was), for one person (an assignment) or everyone (a new version).
 */
export async function newRequests(
  tx: Tx,
  filter: { planId: string; userId: string | null },
  at: Date,
): Promise<NewRequestRow[]> {
  const { rows } = await sql<NewRequestRow>`
    SELECT a.id, a.user_id, u.email, u.name, p.name AS plan_name, a.plan_version
    FROM plan_acknowledgements a JOIN users u ON u.id = a.user_id JOIN comp_plans p ON p.id = a.plan_id
    WHERE a.plan_id = ${filter.planId} AND a.plan_version = p.version AND a.acknowledged_at IS NULL
      AND a.created_at = ${at} AND (${filter.userId}::text IS NULL OR a.user_id = ${filter.userId})
    ORDER BY a.user_id`.execute(tx);
  return rows;
}
