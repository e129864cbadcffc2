import { sql } from "kysely";
import type { Db } from "../db/schema.js";
import type { PostingRow } from "./repository.js";

// The journal's SQL (API.md §17): a month's postings with their assets' deals, by page or keyset, and
// their sums.

/** A posting of the month with its asset's deal, as the journal expands it. */
export interface MonthPosting {
  line_id: string;
  deal_id: string;
  kind: string;
  type: PostingRow["type"];
  booked_on: string | null;
  amount: string;
  currency: string;
}

function monthPostings(db: Db, month: number, currency: string | undefined) {
  let q = db
    .selectFrom("accounting_postings as p")
    .innerJoin("accounting_assets as a", "a.line_id", "p.line_id")
    .where("p.first_month", "<=", month)
    .where("p.last_month", ">=", month)
    .where((eb) => eb.or([eb("p.type", "=", "amortization"), eb("p.first_month", "=", month)]));
  if (currency !== undefined) q = q.where("p.currency", "=", currency);
  return q;
}

/** The month's postings in journal order (line, then type), `limit` from `offset`. */
export async function postingsOfMonth(
  db: Db,
  month: number,
  currency: string | undefined,
  page: { limit: number; offset: number },
): Promise<MonthPosting[]> {
  return monthPostings(db, month, currency)
    .select(["p.line_id", "a.deal_id", "a.kind", "p.type", "p.booked_on", "p.amount", "p.currency"])
    .orderBy("p.line_id")
    .orderBy("p.type")
    .limit(page.limit)
    .offset(page.offset)
    .execute() as Promise<MonthPosting[]>;
}

/** The month's postings after (line_id, type), `limit` of them: the CSV's batches. */
export async function postingsAfter(
  db: Db,
  month: number,
  currency: string | undefined,
  after: { line_id: string; type: string } | null,
  limit: number,
): Promise<MonthPosting[]> {
  let q = monthPostings(db, month, currency).select([
    "p.line_id",
    "a.deal_id",
    "a.kind",
    "p.type",
    "p.booked_on",
    "p.amount",
    "p.currency",
  ]);
  if (after) q = q.where(sql<boolean>`(p.line_id, p.type) > (${after.line_id}, ${after.type})`);
  return q.orderBy("p.line_id").orderBy("p.type").limit(limit).execute() as Promise<MonthPosting[]>;
}

/** Σ amounts of the month's postings by currency, type and sign: what the totals and the summary need. */
export async function monthSums(
  db: Db,
  month: number,
  currency: string | undefined,
): Promise<{ currency: string; type: PostingRow["type"]; negative: boolean; amount: string; n: string }[]> {
  return monthPostings(db, month, currency)
    .select([
      "p.currency",
      "p.type",
      sql<boolean>`p.amount < 0`.as("negative"),
      sql<string>`sum(p.amount)::text`.as("amount"),
      sql<string>`count(*)`.as("n"),
    ])
    .groupBy(["p.currency", "p.type", sql`p.amount < 0`])
    .orderBy("p.currency")
    .execute() as never;
}
