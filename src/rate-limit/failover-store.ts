import type pino from "pino";
import type { Decision, RateLimitStore } from "./limiter.js";
import type { RedisStore } from "./redis-store.js";

const PROBE_EVERY_MS = 2000;

/**
 * Redis first; while Redis is unreachable, the PostgreSQL store (shared by every process, so limits
 * stay exact), never per-process memory. A probe brings Redis back once it answers again.
 */
export class FailoverStore implements RateLimitStore {
  private usingFallback = false;
  private lastProbe = 0;

  constructor(
    private readonly primary: RedisStore,
    private readonly fallback: RateLimitStore,
    private readonly logger: pino.Logger,
  ) {}

  get degraded(): boolean {
    return this.usingFallback;
  }

  async hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<Decision> {
    if (this.usingFallback) await this.maybeRecover();
    if (!this.usingFallback) {
      try {
        return await this.primary.hit(key, limit, windowMs, nowMs);
      } catch (err) {
        if (!this.usingFallback) {
          this.usingFallback = true;
          this.lastProbe = Date.now();
          this.logger.warn({ err: (err as Error).message }, "Redis unreachable: rate limits now kept in PostgreSQL");
        }
      }
    }
    return this.fallback.hit(key, limit, windowMs, nowMs);
  }

  /** Where hits go now; a hit made before a switch (Redis lost, or back) stays and expires with its window. */
  async release(key: string, nowMs: number): Promise<void> {
    if (!this.usingFallback) {
      try {
        return await this.primary.release(key, nowMs);
      } catch {
        return;
      }
    }
    return this.fallback.release(key, nowMs);
  }

  private async maybeRecover(): Promise<void> {
    if (Date.now() - this.lastProbe < PROBE_EVERY_MS) return;
    this.lastProbe = Date.now();
    if (await this.primary.ping()) {
      this.usingFallback = false;
      this.logger.info("Redis is back: rate limits kept in Redis again");
    }
  }

  async close(): Promise<void> {
    await this.primary.close();
  }
}
