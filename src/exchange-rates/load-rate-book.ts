import type { Db } from "../db/schema.js";
import { daysBefore, MAX_FX_AGE_DAYS, RateBook } from "./lookup.js";
import * as repo from "./repository.js";

/**
 * The rates a batch of conversions needs, read once: every set a deal closing from `closeDates.from` to
 * `closeDates.to` could use (back to `from` − maxAgeDays, 31 by default: the largest a plan may have).
 * Then `book.lookup({from, to, close_date, max_age_days})` per deal and plan, in memory.
 */
export async function loadRateBook(
  db: Db,
  closeDates: { from: string; to: string },
  maxAgeDays = MAX_FX_AGE_DAYS,
): Promise<RateBook> {
  return new RateBook(await repo.rateSetsBetween(db, daysBefore(closeDates.from, maxAgeDays), closeDates.to));
}
