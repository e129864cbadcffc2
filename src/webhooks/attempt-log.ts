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
const MAX_BATCH = 100;

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

interface Waiting {
  entry: AttemptEntry;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: a write waits (at most `maxWaitMs`) until every attempt in flight has finished, so a
 * busy worker pays one commit per batch instead of one per delivery; a lone attempt waits for none.
 * Deliveries reached the receiver before this point: only the bookkeeping waits, never the request.
 */
export class AttemptLog {
  private queue: Waiting[] = [];
  private writing = false;
  private full: (() => void) | undefined;

  constructor(
    private readonly db: Db,
    /** Attempts started and not yet recorded (those queued here included). */
    private readonly inFlight: () => number,
    private readonly maxWaitMs = 5,
  ) {}

  record(entry: AttemptEntry): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      if (this.queue.length >= this.inFlight()) this.full?.();
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      await this.gather();
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        await this.write(batch.map((w) => w.entry));
        for (const w of batch) w.resolve();
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.writing = false;
  }

  private gather(): Promise<void> {
    if (this.queue.length >= this.inFlight()) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.maxWaitMs);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.full = undefined;
        resolve();
      }
      this.full = done;
    });
  }

  private async write(entries: AttemptEntry[]): Promise<void> {
    try {
      await recordAttempts(this.db, entries);
    } catch (err) {
      // 23503: a subscription was deleted while its attempt ran; again, its rows are now skipped.
      if ((err as { code?: string }).code !== "23503") throw err;
      await recordAttempts(this.db, entries);
    }
  }
}
