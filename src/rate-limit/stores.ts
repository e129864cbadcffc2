import { type Decision, decide, type RateLimitStore } from "./limiter.js";

/** In-process sliding log: only correct when one process serves the deployment (embedded mode). */
export class MemoryStore implements RateLimitStore {
  private readonly logs = new Map<string, number[]>();
  private hitsSinceSweep = 0;

  async hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<Decision> {
    return this.hitNow(key, limit, windowMs, nowMs);
  }

  /** `hit`, decided at once: the log is in this process, so no promise is needed (app/admission.ts). */
  hitNow(key: string, limit: number, windowMs: number, nowMs: number): Decision {
    const log = this.logs.get(key) ?? [];
    const fresh = dropExpired(log, windowMs, nowMs);
    const allowed = fresh.length < limit;
    if (allowed) fresh.push(nowMs);
    this.logs.set(key, fresh);
    if (++this.hitsSinceSweep >= 10_000) this.sweep(windowMs, nowMs);
    return decide(fresh, limit, windowMs, nowMs, allowed);
  }

  async release(key: string, nowMs: number): Promise<void> {
    const log = this.logs.get(key);
    const at = log?.lastIndexOf(nowMs) ?? -1;
    if (at >= 0) log!.splice(at, 1);
  }

  /** Forgets keys with no request inside the window, so idle keys cost no memory. */
  private sweep(windowMs: number, nowMs: number): void {
    this.hitsSinceSweep = 0;
    for (const [key, log] of this.logs) {
      const newest = log.at(-1);
      if (newest === undefined || newest <= nowMs - windowMs) this.logs.delete(key);
    }
  }
}

function dropExpired(log: number[], windowMs: number, nowMs: number): number[] {
  let i = 0;
  while (i < log.length && log[i]! <= nowMs - windowMs) i++;
  return i === 0 ? log : log.slice(i);
}
