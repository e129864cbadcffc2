import { sql } from "kysely";
import type { Db } from "../db/schema.js";
import type { NextStep } from "./schedule.js";

/** One finished attempt: what happened, and what it means for the delivery and its subscription. */
export interface AttemptEntry {
  deliveryId: string;
  workerId: string;
  /** The attempt number the lease was taken for: a stale holder's result never moves the delivery. */
  attempt: number;
  attemptedAt: Date;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  step: NextStep;
  succeeded: boolean;
  gone: boolean;
  /** A failure clock started at or before this time disables the subscription (5 days). */
  staleBefore: Date;
}

const GONE_REASON = "The endpoint answered 410 Gone; fix it, then PATCH status active to resume deliveries";
const STALE_REASON =
  "Every attempt failed for 5 days with no success; fix the endpoint, then PATCH status active to resume deliveries";

function inputRow(e: AttemptEntry) {
  return {
    delivery_id: e.deliveryId,
    worker_id: e.workerId,
    attempt: e.attempt,
    attempted_at: e.attemptedAt.toISOString(),
    response_status: e.responseStatus,
    duration_ms: e.durationMs,
    error: e.error,
    response_body: e.responseBody,
    status: e.step.status,
    next_attempt_at: e.step.status === "pending" ? e.step.nextAttemptAt.toISOString() : null,
    succeeded: e.succeeded,
    gone: e.gone,
    stale_before: e.staleBefore.toISOString(),
  };
}

/** Records a batch of attempts in one statement (the SQL, with its rules, is in migration 003). */
export async function recordAttempts(db: Db, entries: readonly AttemptEntry[]): Promise<void> {
  const batch = JSON.stringify(entries.map(inputRow));
  await sql`SELECT cts_record_webhook_attempts(${batch}::jsonb, ${GONE_REASON}, ${STALE_REASON})`.execute(db);
}
