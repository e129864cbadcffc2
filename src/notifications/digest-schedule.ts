const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
/** The weekly digest goes out on Mondays at 08:00 UTC (docs/notifications.md). */
const SEND_HOUR_UTC = 8;

/** One week's digest: its ISO week (`2026-W48`, the week it is sent in) and the 7 days it reports. */
export interface DigestWeek {
  week: string;
  /** Monday 08:00 UTC: when it is due. The digest reports [from, at). */
  at: Date;
  from: Date;
}

/** The ISO 8601 week of a date, as `2026-W48` (weeks start on Monday; week 1 holds the year's first Thursday). */
export function isoWeek(date: Date): string {
  const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  const thursday = new Date(day + (3 - ((date.getUTCDay() + 6) % 7)) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / WEEK_MS) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/** The latest digest due at `now`: this Monday's at 08:00 UTC, or last Monday's before that hour. */
export function dueDigest(now: Date): DigestWeek {
  const sinceMonday = (now.getUTCDay() + 6) % 7;
  let at = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - sinceMonday, SEND_HOUR_UTC);
  if (at > now.getTime()) at -= WEEK_MS;
  return { week: isoWeek(new Date(at)), at: new Date(at), from: new Date(at - WEEK_MS) };
}
