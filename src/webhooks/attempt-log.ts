import type { Db } from "../db/schema.js";
import { type AttemptEntry, recordAttempts } from "./attempts-repository.js";

const MAX_BATCH = 100;

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
