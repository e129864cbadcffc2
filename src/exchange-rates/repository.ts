import { type Selectable, sql } from "kysely";
import type { Tx } from "../context.js";
import type { Db, ExchangeRateSetsTable } from "../db/schema.js";
import { toIso } from "../http/date-fields.js";
import type { RateSet } from "./lookup.js";
import type { ExchangeRateSet, ListRatesQuery } from "./schema.js";

type Row = Selectable<ExchangeRateSetsTable>;

/** Codes in order, so a set's JSON (and its ETag) does not depend on the order they were sent in. */
const sortedRates = (rates: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(rates).sort(([a], [b]) => (a < b ? -1 : 1)));

export function toRateSet(row: Row): ExchangeRateSet {
  return {
    date: row.date,
    base: row.base,
    rates: sortedRates(row.rates),
    created_at: toIso(row.created_at)!,
    updated_at: toIso(row.updated_at)!,
  };
}

/** Rate writes take turns (they are rare): a create and a replace of one set never both answer 201. */
export async function lockRateSets(tx: Tx): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(7150426, 1)`.execute(tx);
}

export async function findRateSet(db: Db, date: string, base: string): Promise<ExchangeRateSet | undefined> {
  const row = await db
    .selectFrom("exchange_rate_sets")
    .selectAll()
    .where("date", "=", date)
    .where("base", "=", base)
    .executeTakeFirst();
  return row && toRateSet(row);
}

export async function saveRateSet(tx: Tx, set: RateSet, now: Date, created: boolean): Promise<ExchangeRateSet> {
  const rates = JSON.stringify(sortedRates(set.rates));
  const row = created
    ? await tx
        .insertInto("exchange_rate_sets")
        .values({ date: set.date, base: set.base, rates, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow()
    : await tx
        .updateTable("exchange_rate_sets")
        .set({ rates, updated_at: now })
        .where("date", "=", set.date)
        .where("base", "=", set.base)
        .returningAll()
        .executeTakeFirstOrThrow();
  return toRateSet(row);
}

export async function deleteRateSet(tx: Tx, date: string, base: string): Promise<void> {
  await tx.deleteFrom("exchange_rate_sets").where("date", "=", date).where("base", "=", base).execute();
}

export async function listRateSets(db: Db, q: ListRatesQuery, limit: number, offset: number) {
  let query = db.selectFrom("exchange_rate_sets");
  if (q.date) query = query.where("date", "=", q.date);
  if (q.base) query = query.where("base", "=", q.base);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("date", "desc").orderBy("base", "asc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRateSet), total: Number(count.n) };
}

/** Every set dated from `from` to `to` (inclusive): what a batch of conversions reads once. */
export async function rateSetsBetween(db: Db, from: string, to: string): Promise<RateSet[]> {
  const rows = await db
    .selectFrom("exchange_rate_sets")
    .select(["date", "base", "rates"])
    .where("date", ">=", from)
    .where("date", "<=", to)
    .execute();
  return rows.map((r) => ({ date: r.date, base: r.base, rates: r.rates }));
}
