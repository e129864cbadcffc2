import { type Selectable, sql } from "kysely";
import type { Tx } from "../context.js";
import type { Db, WebhookAttemptsTable, WebhookDeliveriesTable } from "../db/schema.js";
import { toIso } from "../http/date-fields.js";
import type { DeliveryAttempt, ListDeliveriesQuery, WebhookDelivery } from "./schema.js";

type DeliveryRow = Selectable<WebhookDeliveriesTable>;
type AttemptRow = Selectable<WebhookAttemptsTable>;

/** The channel the fan-out trigger notifies; workers LISTEN on it to claim at once instead of at the next poll. */
export const DELIVERY_CHANNEL = "cts_webhook_deliveries";

function toAttempt(row: AttemptRow): DeliveryAttempt {
  return {
    attempted_at: toIso(row.attempted_at)!,
    response_status: row.response_status,
    duration_ms: row.duration_ms,
    error: row.error,
    response_body: row.response_body,
  };
}

function toDelivery(row: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery {
  return {
    id: row.id,
    subscription_id: row.subscription_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: attempts.map(toAttempt),
    next_attempt_at: row.status === "pending" ? toIso(row.next_attempt_at) : null,
    created_at: toIso(row.created_at)!,
  };
}

async function withAttempts(db: Db, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  if (rows.length === 0) return [];
  const attempts = await db
    .selectFrom("webhook_attempts")
    .selectAll()
    .where(
      "delivery_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("attempted_at")
    .orderBy("id")
    .execute();
  const byDelivery = new Map<string, AttemptRow[]>();
  for (const attempt of attempts) {
    const list = byDelivery.get(attempt.delivery_id) ?? [];
    list.push(attempt);
    byDelivery.set(attempt.delivery_id, list);
  }
  return rows.map((row) => toDelivery(row, byDelivery.get(row.id) ?? []));
}

export async function lockDelivery(db: Tx, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export async function listDeliveries(
  db: Db,
  subscriptionId: string,
  q: ListDeliveriesQuery,
  limit: number,
  offset: number,
) {
  let query = db.selectFrom("webhook_deliveries").where("subscription_id", "=", subscriptionId);
  if (q.status) query = query.where("status", "=", q.status);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: await withAttempts(db, rows), total: Number(count.n) };
}

export async function insertDelivery(
  db: Tx,
  row: { id: string; subscription_id: string; event_id: string; event_type: string; at: Date },
): Promise<void> {
  await db
    .insertInto("webhook_deliveries")
    .values({
      id: row.id,
      subscription_id: row.subscription_id,
      event_id: row.event_id,
      event_type: row.event_type,
      next_attempt_at: row.at,
      created_at: row.at,
    })
    .execute();
}

/** Makes the delivery due now; `finalAttempt` is the attempt after which a failure is final. */
export async function queueAttemptNow(db: Tx, id: string, now: Date, finalAttempt: number): Promise<WebhookDelivery> {
  const row = await db
    .updateTable("webhook_deliveries")
    .set({ status: "pending", next_attempt_at: now, final_attempt: finalAttempt })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return (await withAttempts(db, [row]))[0]!;
}

/** Wakes listening workers when the caller's transaction commits (PostgreSQL delivers NOTIFY on commit). */
export async function notifyWorkers(db: Tx): Promise<void> {
  await sql`SELECT pg_notify(${DELIVERY_CHANNEL}, '')`.execute(db);
}

/** A delivery leased to one worker, with everything its attempt needs (one round trip). */
export interface ClaimedDelivery {
  id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  /** The number of this attempt, 1-based; counted at claim. */
  attempt_count: number;
  final_attempt: number;
  event_data: Record<string, unknown>;
  event_created_at: Date;
  url: string;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * Leases up to `limit` due deliveries of active subscriptions and commits (one statement; the SQL is
 * in migration 003). SKIP LOCKED plus PostgreSQL's re-check of the WHERE on rows another worker just
 * claimed means two workers never lease the same attempt; an expired lease makes a delivery due again.
 */
export async function claimDeliveries(
  db: Db,
  workerId: string,
  limit: number,
  now: Date,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  const until = new Date(now.getTime() + leaseMs);
  const result = await sql<ClaimedDelivery>`
    SELECT * FROM cts_claim_webhook_deliveries(${workerId}, ${limit}, ${now}, ${until})`.execute(db);
  return result.rows.map((row) => ({
    ...row,
    attempt_count: Number(row.attempt_count),
    final_attempt: Number(row.final_attempt),
    event_created_at: new Date(row.event_created_at),
    previous_secret_expires_at: row.previous_secret_expires_at && new Date(row.previous_secret_expires_at),
  }));
}

/**
 * Refreshes the planner's statistics, so the claim reads the due index in order instead of sorting
 * every due row: PGlite runs no autovacuum, and a table analyzed while empty plans a backlog badly.
 */
export async function analyzeDeliveries(db: Db): Promise<void> {
  await sql`ANALYZE webhook_deliveries`.execute(db);
}

/** Hands back leased deliveries whose attempt never started: the attempt they counted is given back too. */
export async function returnUnstarted(db: Db, workerId: string, deliveries: readonly ClaimedDelivery[]) {
  for (const d of deliveries) {
    await db
      .updateTable("webhook_deliveries")
      .set((eb) => ({ locked_until: null, claimed_by: null, attempt_count: eb("attempt_count", "-", 1) }))
      .where("id", "=", d.id)
      .where("claimed_by", "=", workerId)
      .where("attempt_count", "=", d.attempt_count)
      .execute();
  }
}

/** Hands this worker's leases back (shutdown) so another worker takes them at once. */
export async function releaseLeases(db: Db, workerId: string): Promise<void> {
  await sql`UPDATE webhook_deliveries SET locked_until = NULL, claimed_by = NULL
    WHERE status = 'pending' AND claimed_by = ${workerId}`.execute(db);
}

/** Every lease, whoever holds it: only for a process that knows no other worker can be alive. */
export async function releaseAllLeases(db: Db): Promise<number> {
  const result = await sql`UPDATE webhook_deliveries SET locked_until = NULL, claimed_by = NULL
    WHERE status = 'pending' AND claimed_by IS NOT NULL`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
