/** A message is tried at most this many times, then logged as failed. */
export const MAX_ATTEMPTS = 8;

/** 30 s, 2 min, 8 min, 32 min, then every 2 h, each ±20 %: a mail server's hiccup is not a lost message. */
export function retryAt(attempt: number, now: Date, random: () => number): Date {
  const base = Math.min(30_000 * 4 ** Math.max(attempt - 1, 0), 2 * 3_600_000);
  return new Date(now.getTime() + Math.round(base * (0.8 + 0.4 * random())));
}
