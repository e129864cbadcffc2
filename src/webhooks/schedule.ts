const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Delays before retry 1…9 (API.md §6); after the 10th attempt fails the delivery is `failed`. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];
export const SCHEDULED_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const JITTER = 0.2;
/** A Retry-After longer than the longest scheduled delay is capped to it. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;
/** Failures with no success for this long disable the subscription. */
export const AUTO_DISABLE_AFTER_MS = 5 * DAY;

/** `delay` scaled by a factor in [1 - 20 %, 1 + 20 %); `random` returns [0, 1) like Math.random. */
export function withJitter(delayMs: number, random: () => number): number {
  return Math.round(delayMs * (1 + JITTER * (2 * random() - 1)));
}

/** Retry-After as seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * SECOND, MAX_RETRY_AFTER_MS);
  // HTTP dates name a weekday and month; without letters Date.parse would accept numbers like "-5".
  const at = /[A-Za-z]/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - now.getTime()), MAX_RETRY_AFTER_MS);
}

/** What one attempt's result means for the delivery and its subscription. */
export interface Verdict {
  succeeded: boolean;
  /** 410 Gone: the receiver says the endpoint is gone for good. */
  gone: boolean;
  /** Only from 429 and 503. */
  retryAfterMs: number | null;
}

export function judge(status: number | null, retryAfter: string | undefined, now: Date): Verdict {
  const succeeded = status !== null && status >= 200 && status < 300;
  const honoured = status === 429 || status === 503;
  return { succeeded, gone: status === 410, retryAfterMs: honoured ? parseRetryAfter(retryAfter, now) : null };
}

export type NextStep = { status: "succeeded" } | { status: "failed" } | { status: "pending"; nextAttemptAt: Date };

/**
 * After attempt number `attempt` (1-based): success ends it; a 410 or the final attempt fails it;
 * otherwise the next retry waits the scheduled delay with jitter, or longer when Retry-After asks.
 */
export function nextStep(
  verdict: Verdict,
  attempt: number,
  finalAttempt: number,
  now: Date,
  random: () => number,
): NextStep {
  if (verdict.succeeded) return { status: "succeeded" };
  if (verdict.gone || attempt >= finalAttempt) return { status: "failed" };
  const scheduled = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1]!;
  const delay = Math.max(withJitter(scheduled, random), verdict.retryAfterMs ?? 0);
  return { status: "pending", nextAttemptAt: new Date(now.getTime() + delay) };
}
