import type { Db } from "../db/schema.js";
import { type Decision, decideBySize, type RateLimitStore } from "./limiter.js";
import { deleteExpiredLimits, recordHits, removeHit } from "./repository.js";

interface Hit {
  nowMs: number;
  resolve: (d: { decision: Decision; keyVersion: string }) => void;
  reject: (err: unknown) => void;
}

/**
 * The sliding log in PostgreSQL, shared by every process. One key's log is one row, locked by each
 * statement that changes it, so concurrent requests of a key queue on that row: instead of one statement
 * per request, the hits of a key that arrive while its previous statement runs go together in the next
 * one (`cts_rate_limit_hits`, 007_deal_counts.sql), which decides them one by one in arrival order,
 * exactly as separate statements would. Under load a busy key costs a statement per round trip.
 */
export class PostgresStore implements RateLimitStore {
  /** Hits waiting for their key's statement, by key, limit and window. */
  private readonly waiting = new Map<string, Hit[]>();
  private readonly running = new Set<string>();

  constructor(private readonly db: Db) {}

  async hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<Decision> {
    return (await this.hitReadingKeyVersion(key, limit, windowMs, nowMs)).decision;
  }

  hitReadingKeyVersion(
    key: string,
    limit: number,
    windowMs: number,
    nowMs: number,
  ): Promise<{ decision: Decision; keyVersion: string }> {
    const slot = `${limit}/${windowMs}/${key}`;
    return new Promise((resolve, reject) => {
      const hits = this.waiting.get(slot);
      if (hits) hits.push({ nowMs, resolve, reject });
      else this.waiting.set(slot, [{ nowMs, resolve, reject }]);
      if (!this.running.has(slot)) this.send(slot, key, limit, windowMs);
    });
  }

  private send(slot: string, key: string, limit: number, windowMs: number): void {
    const hits = this.waiting.get(slot);
    if (!hits) return;
    this.waiting.delete(slot);
    this.running.add(slot);
    this.decide(key, limit, windowMs, hits)
      .catch((err) => {
        for (const h of hits) h.reject(err);
      })
      .finally(() => {
        this.running.delete(slot);
        this.send(slot, key, limit, windowMs);
      });
  }

  private async decide(key: string, limit: number, windowMs: number, hits: Hit[]): Promise<void> {
    const times = hits.map((h) => h.nowMs);
    const expires = new Date(Math.max(...times) + windowMs);
    const row = await recordHits(this.db, key, times, limit, windowMs, expires);
    const keyVersion = String(row.key_version ?? "0");
    hits.forEach((h, i) => {
      const oldest = row.oldest[i];
      const decision = decideBySize(
        Number(row.sizes[i]),
        oldest === null || oldest === undefined ? undefined : Number(oldest),
        limit,
        windowMs,
        h.nowMs,
        row.allowed[i] === true,
      );
      h.resolve({ decision, keyVersion });
    });
  }

  /** One statement, under the row's lock like every hit: the first `nowMs` of the key's log goes. */
  async release(key: string, nowMs: number): Promise<void> {
    await removeHit(this.db, key, nowMs);
  }

  /** Retention: forget keys idle for a whole window. */
  async purgeExpired(now: Date, batch = 1000): Promise<number> {
    return deleteExpiredLimits(this.db, now, batch);
  }
}
