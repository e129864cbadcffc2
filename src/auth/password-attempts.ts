import { FAILED_LOGINS_PER_EMAIL, type RateLimitStore, tooManyRequests } from "../rate-limit/limiter.js";

/** Where an email's failed password checks are logged: sign-ins and password changes alike (API.md §11). */
export function failuresKey(email: string): string {
  return `login:${email.toLowerCase()}`;
}

/** One password check of an email, holding one of its 10 slots until it ends. */
export interface PasswordAttempt {
  /** The password was wrong: the slot stays in the log as the failure. */
  failed(): void;
  /** Gives the slot back unless `failed()` was called (a right password, or nothing was verified). */
  end(): Promise<void>;
}

/**
 * Takes a slot in the email's log of failures (10 in 15 minutes) before its password is verified: one
 * atomic hit in the store every process shares, so whatever the concurrency, at most 10 verifications
 * run per window, never 11. No slot left → 429 `rate_limited` with Retry-After, before any verification.
 */
export async function beginPasswordAttempt(
  store: RateLimitStore,
  email: string,
  now: Date,
  refusal: string,
): Promise<PasswordAttempt> {
  const key = failuresKey(email);
  const { limit, windowMs } = FAILED_LOGINS_PER_EMAIL;
  const decision = await store.hit(key, limit, windowMs, now.getTime());
  if (!decision.allowed) throw tooManyRequests(decision.resetSeconds, refusal);
  let counted = false;
  return {
    failed: () => {
      counted = true;
    },
    end: async () => {
      if (!counted) await store.release(key, now.getTime());
    },
  };
}
