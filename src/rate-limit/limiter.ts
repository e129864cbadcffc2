/** The outcome of one request against a sliding log (API.md §3). */
export interface Decision {
  allowed: boolean;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Whole seconds until the oldest request in the window expires (0 while remaining > 0). */
  resetSeconds: number;
}

/**
 * An exact sliding log: a request is allowed only if fewer than `limit` requests were allowed in the
 * last `windowMs`. Fixed windows, GCRA and weighted counters would let bursts through at edges.
 * Stores differ only in where the log lives (memory here; Redis and PostgreSQL behind the same call).
 */
export interface RateLimitStore {
  hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<Decision>;
  close?(): Promise<void>;
}

/** The decision from a log of allowed request times (ascending, already inside the window). */
export function decide(
  log: readonly number[],
  limit: number,
  windowMs: number,
  nowMs: number,
  allowed: boolean,
): Decision {
  return decideBySize(log.length, log[0], limit, windowMs, nowMs, allowed);
}

/** The same decision from the log's size and its oldest time alone (stores that keep the log elsewhere). */
export function decideBySize(
  size: number,
  oldest: number | undefined,
  limit: number,
  windowMs: number,
  nowMs: number,
  allowed: boolean,
): Decision {
  const remaining = Math.max(0, limit - size);
  const resetSeconds =
    remaining > 0 || oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + windowMs - nowMs) / 1000));
  return { allowed, remaining, resetSeconds };
}

export interface Limit {
  limit: number;
  windowMs: number;
}

export const PER_KEY: Limit = { limit: 100, windowMs: 60_000 };
/** A signed-in person's session requests (API.md §11), counted per user (key `user:<id>`). */
export const PER_USER: Limit = { limit: 300, windowMs: 60_000 };
export const FAILED_AUTH_PER_IP: Limit = { limit: 30, windowMs: 60_000 };
/** Failed sign-ins for one email (API.md §11), counted under `login:<lowercased email>`. */
export const FAILED_LOGINS_PER_EMAIL: Limit = { limit: 10, windowMs: 15 * 60_000 };

/** The policy a limited request was counted under, as named in the RateLimit headers. */
export type PolicyName = "per-key" | "per-user";

export function policyHeader(limit: Limit, name: PolicyName = "per-key"): string {
  return `"${name}";q=${limit.limit};w=${limit.windowMs / 1000}`;
}

export function stateHeader(d: Decision, name: PolicyName = "per-key"): string {
  return `"${name}";r=${d.remaining};t=${d.resetSeconds}`;
}
