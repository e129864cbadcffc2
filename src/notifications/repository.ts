import { sql } from "kysely";
import type { Db } from "../db/schema.js";
import { KIND_OF_EVENT, type NotificationKind } from "./kinds.js";

// The SQL of notifications: the queue the events trigger fills, the deliveries, preferences.

/** A person who gets one message, with what it says. */
export interface Recipient {
  user_id: string;
  email: string;
  data: Record<string, unknown>;
}

export interface NewDelivery {
  id: string;
  dedupe_key: string;
  kind: NotificationKind;
  user_id: string;
  event_id: string | null;
  to_address: string;
  data: Record<string, unknown>;
  secret_encrypted: string | null;
  created_at: Date;
}

/** Inserts deliveries; one already there for the same cause, person and kind is left as it is. */
export async function insertDeliveries(db: Db, rows: NewDelivery[]): Promise<number> {
  let inserted = 0;
  for (const r of rows) {
    const result = await sql`
      INSERT INTO notification_deliveries (id, dedupe_key, kind, user_id, event_id, to_address, data,
        secret_encrypted, next_attempt_at, created_at)
      VALUES (${r.id}, ${r.dedupe_key}, ${r.kind}, ${r.user_id}, ${r.event_id}, ${r.to_address},
        ${JSON.stringify(r.data)}::jsonb, ${r.secret_encrypted}, ${r.created_at}, ${r.created_at})
      ON CONFLICT (dedupe_key) DO NOTHING`.execute(db);
    inserted += Number(result.numAffectedRows ?? 0n);
  }
  return inserted;
}

/** Queued events, locked for expansion (SKIP LOCKED: two workers never expand one event at once). */
export async function lockQueuedEvents(
  db: Db,
  limit: number,
): Promise<{ id: string; type: string; object_id: string | null }[]> {
  const { rows } = await sql<{ id: string; type: string; object_id: string | null }>`
    SELECT e.id, e.type, e.data->'object'->>'id' AS object_id
    FROM notification_queue q JOIN events e ON e.id = q.event_id
    WHERE q.event_id IN (SELECT event_id FROM notification_queue ORDER BY created_at LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    ORDER BY q.created_at`.execute(db);
  return rows;
}

export async function dequeueEvents(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`DELETE FROM notification_queue WHERE event_id IN (${sql.join(ids)})`.execute(db);
}

/** Drops what is queued (email is not configured: nobody is to be told, now or later). */
export async function dropQueue(db: Db): Promise<number> {
  const result = await sql`DELETE FROM notification_queue`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Not turned off by the person (SQL condition on users `u`). */
const wants = (kind: NotificationKind) => sql`u.active AND NOT EXISTS (
  SELECT 1 FROM notification_preferences np WHERE np.user_id = u.id AND np.kind = ${kind} AND NOT np.enabled)`;

/** Whether the person is active and has not turned `kind` off (a direct message of a switchable kind). */
export async function wantsKind(db: Db, userId: string, kind: NotificationKind): Promise<boolean> {
  const { rows } = await sql<{
    id: string;
  }>`SELECT u.id FROM users u WHERE u.id = ${userId} AND ${wants(kind)}`.execute(db);
  return rows.length > 0;
}

/** Who an event tells, and what: the people credited, the admins, or each person a run paid. */
export async function recipientsOf(db: Db, type: string, objectId: string): Promise<Recipient[]> {
  const kind = KIND_OF_EVENT[type];
  if (!kind) return [];
  if (type.startsWith("deal.")) {
    const { rows } = await sql<Recipient>`
      SELECT u.id AS user_id, u.email,
        jsonb_build_object('name', u.name, 'deal_id', d.id, 'deal_name', d.opportunity_name) AS data
      FROM deals d JOIN deal_splits s ON s.deal_id = d.id JOIN users u ON u.id = s.user_id
      WHERE d.id = ${objectId} AND ${wants(kind)} ORDER BY s.position`.execute(db);
    return rows;
  }
  if (type === "dispute.opened") {
    const { rows } = await sql<Recipient>`
      SELECT u.id AS user_id, u.email,
        jsonb_build_object('name', u.name, 'deal_id', d.id, 'deal_name', d.opportunity_name, 'reason', x.reason,
          'dispute_id', x.id) AS data
      FROM disputes x JOIN deals d ON d.id = x.deal_id CROSS JOIN users u
      WHERE x.id = ${objectId} AND u.role = 'admin' AND ${wants(kind)} ORDER BY u.id`.execute(db);
    return rows;
  }
  if (type === "dispute.resolved") {
    const { rows } = await sql<Recipient>`
      SELECT u.id AS user_id, u.email,
        jsonb_build_object('name', u.name, 'deal_id', d.id, 'deal_name', d.opportunity_name, 'outcome', x.outcome,
          'resolution_note', x.resolution_note, 'dispute_id', x.id) AS data
      FROM disputes x JOIN deals d ON d.id = x.deal_id JOIN deal_splits s ON s.deal_id = d.id
        JOIN users u ON u.id = s.user_id
      WHERE x.id = ${objectId} AND ${wants(kind)} ORDER BY s.position`.execute(db);
    return rows;
  }
  // payout_run.finalized: each person paid, with what the run pays them in each currency.
  const { rows } = await sql<Recipient>`
    SELECT u.id AS user_id, u.email,
      jsonb_build_object('name', u.name, 'run_id', r.id, 'period_start', r.period_start::text,
        'period_end', r.period_end::text, 'pay_date', r.pay_date::text,
        'amounts', (SELECT jsonb_agg(jsonb_build_object('currency', t.currency, 'amount', t.amount) ORDER BY t.currency)
          FROM (SELECT l.currency, to_char(sum(l.amount), 'FM9999999999999999990.00') AS amount
                FROM commission_lines l WHERE l.payout_run_id = r.id AND l.user_id = u.id
                GROUP BY l.currency) t)) AS data
    FROM payout_runs r JOIN users u ON u.id IN (
      SELECT DISTINCT l.user_id FROM commission_lines l WHERE l.payout_run_id = r.id)
    WHERE r.id = ${objectId} AND ${wants(kind)} ORDER BY u.id`.execute(db);
  return rows;
}

export interface ClaimedDelivery {
  id: string;
  kind: NotificationKind;
  user_id: string;
  to_address: string;
  data: Record<string, unknown>;
  secret_encrypted: string | null;
  attempt_count: number;
}

/** Due deliveries, leased to this worker and committed before any message leaves. */
export async function claimDeliveries(
  db: Db,
  worker: string,
  limit: number,
  now: Date,
  leaseUntil: Date,
): Promise<ClaimedDelivery[]> {
  const { rows } = await sql<ClaimedDelivery>`
    UPDATE notification_deliveries d
    SET lease_owner = ${worker}, lease_until = ${leaseUntil}, attempt_count = d.attempt_count + 1
    WHERE d.id IN (
      SELECT id FROM notification_deliveries
      WHERE status = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until < ${now})
      ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING d.id, d.kind, d.user_id, d.to_address, d.data, d.secret_encrypted, d.attempt_count`.execute(db);
  return rows;
}

export async function markSent(db: Db, id: string, at: Date): Promise<void> {
  await sql`UPDATE notification_deliveries SET status = 'sent', sent_at = ${at}, secret_encrypted = NULL,
    lease_owner = NULL, lease_until = NULL, last_error = NULL WHERE id = ${id}`.execute(db);
}

export async function markFailed(db: Db, id: string, error: string): Promise<void> {
  await sql`UPDATE notification_deliveries SET status = 'failed', secret_encrypted = NULL,
    lease_owner = NULL, lease_until = NULL, last_error = ${error} WHERE id = ${id}`.execute(db);
}

export async function markRetry(db: Db, id: string, error: string, next: Date): Promise<void> {
  await sql`UPDATE notification_deliveries SET next_attempt_at = ${next}, lease_owner = NULL,
    lease_until = NULL, last_error = ${error} WHERE id = ${id}`.execute(db);
}

export async function releaseLeases(db: Db, worker: string | null): Promise<number> {
  const result = await sql`UPDATE notification_deliveries
    SET lease_owner = NULL, lease_until = NULL, attempt_count = greatest(attempt_count - 1, 0)
    WHERE status = 'pending' AND lease_owner IS NOT NULL AND (${worker}::text IS NULL OR lease_owner = ${worker})`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0n);
}

export interface DeliveryRow {
  id: string;
  kind: NotificationKind;
  user_id: string;
  event_id: string | null;
  to_address: string;
  status: "pending" | "sent" | "failed";
  attempt_count: number;
  next_attempt_at: Date;
  last_error: string | null;
  sent_at: Date | null;
  created_at: Date;
}

export async function listDeliveries(
  db: Db,
  filter: { status?: string | undefined; user_id?: string | undefined; kind?: string | undefined },
  limit: number,
  offset: number,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const where = sql`(${filter.status ?? null}::text IS NULL OR status = ${filter.status ?? null})
    AND (${filter.user_id ?? null}::text IS NULL OR user_id = ${filter.user_id ?? null})
    AND (${filter.kind ?? null}::text IS NULL OR kind = ${filter.kind ?? null})`;
  const { rows } = await sql<DeliveryRow>`
    SELECT id, kind, user_id, event_id, to_address, status, attempt_count, next_attempt_at, last_error, sent_at,
      created_at
    FROM notification_deliveries WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`.execute(
    db,
  );
  const count = await sql<{ n: string }>`SELECT count(*) AS n FROM notification_deliveries WHERE ${where}`.execute(db);
  return { rows, total: Number(count.rows[0]?.n ?? 0) };
}

export async function preferencesOf(db: Db, userId: string): Promise<Map<string, boolean>> {
  const { rows } = await sql<{ kind: string; enabled: boolean }>`
    SELECT kind, enabled FROM notification_preferences WHERE user_id = ${userId}`.execute(db);
  return new Map(rows.map((r) => [r.kind, r.enabled]));
}

export async function savePreference(db: Db, userId: string, kind: string, enabled: boolean): Promise<void> {
  await sql`INSERT INTO notification_preferences (user_id, kind, enabled) VALUES (${userId}, ${kind}, ${enabled})
    ON CONFLICT (user_id, kind) DO UPDATE SET enabled = EXCLUDED.enabled`.execute(db);
}
