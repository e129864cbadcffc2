import { sql } from "kysely";
import type { Kdb } from "../db/connect.js";

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
  db: Kdb,
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
export async function analyzeDeliveries(db: Kdb): Promise<void> {
  await sql`ANALYZE webhook_deliveries`.execute(db);
}

/** Hands back leased deliveries whose attempt never started: the attempt they counted is given back too. */
export async function returnUnstarted(db: Kdb, workerId: string, deliveries: readonly ClaimedDelivery[]) {
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
export async function releaseLeases(db: Kdb, workerId: string): Promise<void> {
  await sql`UPDATE webhook_deliveries SET locked_until = NULL, claimed_by = NULL
    WHERE status = 'pending' AND claimed_by = ${workerId}`.execute(db);
}

/** Every lease, whoever holds it: only for a process that knows no other worker can be alive. */
export async function releaseAllLeases(db: Kdb): Promise<number> {
  const result = await sql`UPDATE webhook_deliveries SET locked_until = NULL, claimed_by = NULL
    WHERE status = 'pending' AND claimed_by IS NOT NULL`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
