import { AppError } from "../errors.js";
import { rateLimitRejections } from "../metrics.js";

/** The outcome of one request against a sliding log (API.md §3). */
export interface Decision {
  allowed: boolean;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Whole seconds until the oldest request in the window expires (0 while remaining > 0). */
  resetSeconds: number;
  /** Only for a look (a hit with limit 0, see `logSize`): how many requests the window holds. */
  size?: number;
}

/**
 * An exact sliding log: a request is allowed only if fewer than `limit` requests were allowed in the
 * last `windowMs`. Fixed windows, GCRA and weighted counters would let bursts through at edges.
 * Stores differ only in where the log lives (memory here; Redis and PostgreSQL behind the same call).
 */
export interface RateLimitStore {
  hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<Decision>;
  /** Stores that keep the log in this process (memory): the same hit, decided synchronously. */
  hitNow?(key: string, limit: number, windowMs: number, nowMs: number): Decision;
  /** Takes back one allowed hit of `key` made at `nowMs` (a reserved slot that turned out not to count). */
  release(key: string, nowMs: number): Promise<void>;
  close?(): Promise<void>;
  /**
   * Stores that can (PostgreSQL): the hit, and `api_key_version` read by the same statement, as of after
   * the hit arrived — what authentication waits for before it trusts its key cache (api-keys/key-cache.ts).
   */
  hitReadingKeyVersion?(
    key: string,
    limit: number,
    windowMs: number,
    nowMs: number,
  ): Promise<{ decision: Decision; keyVersion: string }>;
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
  return limit === 0 ? { allowed, remaining, resetSeconds, size } : { allowed, remaining, resetSeconds };
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

/**
 * How many requests `key`'s log holds in the window, without adding one: a hit whose limit is 0 is
 * refused, and no store appends a refused hit. `resetSeconds`: until the oldest of them leaves the window.
 */
export async function logSize(
  store: RateLimitStore,
  key: string,
  windowMs: number,
  nowMs: number,
): Promise<{ size: number; resetSeconds: number }> {
  const d = await store.hit(key, 0, windowMs, nowMs);
  return { size: d.size ?? 0, resetSeconds: d.resetSeconds };
}

/** 429 `rate_limited` with `Retry-After` (≥ 1 s). */
export function tooManyRequests(retryAfter: number, message: string): AppError {
  return new AppError("rate_limited", message, undefined, { "Retry-After": String(Math.max(1, retryAfter)) });
}

/**
 * One failed authentication (a bad key, an ended session, a failed sign-in) from a client address;
 * past 30 a minute, 429 instead of the 401 (API.md §3). Returns whether the address is now refused.
 */
export async function countFailedAuth(store: RateLimitStore, ip: string, nowMs: number): Promise<AppError | undefined> {
  const d = await store.hit(`ip:${ip}`, FAILED_AUTH_PER_IP.limit, FAILED_AUTH_PER_IP.windowMs, nowMs);
  if (d.allowed) return undefined;
  rateLimitRejections.inc({ limiter: "ip" });
  return tooManyRequests(d.resetSeconds, "Too many failed authentication attempts from this address; retry later");
}
