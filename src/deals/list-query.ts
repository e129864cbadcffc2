import { sql } from "kysely";
import { dealExplanation } from "../commissions/schema.js";
import type { Tx } from "../context.js";
import type { Kdb } from "../db/connect.js";
import type { Deal, DealStatus, ListDealsQuery } from "./schema.js";

/** The SQL of GET /deals: one page, the splits of its deals, and its exact total. */

type Db = Kdb | Tx;

/** A listed deal as PostgreSQL's json renders it: numerics as numbers, timestamps as ISO 8601 text. */
interface ListedRow {
  id: string;
  external_id: string | null;
  opportunity_name: string;
  arr_amount: number;
  currency: string;
  deal_type: Deal["deal_type"];
  close_date: string;
  owner_id: string;
  status: DealStatus;
  total_commission: number;
  rejection_reason: string | null;
  approved_at: string | null;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}

/** [deal_id, user_id, percent, no_plan_reason], in split order. */
type ListedSplit = [string, string, number, string | null];

const LISTED_COLUMNS = [
  "id",
  "external_id",
  "opportunity_name",
  "arr_amount",
  "currency",
  "deal_type",
  "close_date",
  "owner_id",
  "status",
  "total_commission",
  "rejection_reason",
  "approved_at",
  "paid_at",
  "created_at",
  "updated_at",
] as const;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filtered(db: Db, q: ListDealsQuery) {
  let query = db.selectFrom("deals");
  if (q.status) query = query.where("status", "in", q.status);
  if (q.owner_id) query = query.where("owner_id", "=", q.owner_id);
  if (q.close_date_from) query = query.where("close_date", ">=", q.close_date_from);
  if (q.close_date_to) query = query.where("close_date", "<=", q.close_date_to);
  if (q.updated_since) query = query.where("updated_at", ">=", new Date(q.updated_since));
  if (q.external_id) query = query.where("external_id", "=", q.external_id);
  if (q.q) query = query.where(sql<boolean>`opportunity_name ILIKE ${`%${escapeLike(q.q)}%`}`);
  return query;
}

/**
 * The page, its splits and its total, in one statement when the total is a sum of deal_counts (else
 * with a count(*) beside it). The page and the splits come back as one JSON text each: a driver then
 * parses two fields instead of ~2,000 (on PGlite, decoding fields one by one cost more than running
 * the query; bench/README.md).
 */
export async function listDeals(db: Db, q: ListDealsQuery, limit: number, offset: number) {
  const query = filtered(db, q);
  const desc = q.sort.startsWith("-");
  const column = (desc ? q.sort.slice(1) : q.sort) as "created_at" | "close_date" | "arr_amount" | "total_commission";
  const direction = sql.raw(desc ? "DESC" : "ASC");
  const page = query
    .select(LISTED_COLUMNS)
    .orderBy(column, desc ? "desc" : "asc")
    .orderBy("id", desc ? "desc" : "asc")
    .limit(limit)
    .offset(offset);
  const byStatus = countedByStatus(q);
  const counts = byStatus ? deltaSums(q.status) : sql`NULL::numeric AS total, NULL::bigint AS delta_rows`;
  const listed = sql<{ page: string | null; splits: string | null; total: string | null; delta_rows: string | null }>`
    WITH p AS (${page})
    SELECT
      (SELECT json_agg(p ORDER BY p.${sql.ref(column)} ${direction}, p.id ${direction}) FROM p)::text AS page,
      (SELECT json_agg(json_build_array(s.deal_id, s.user_id, s.percent, s.no_plan_reason) ORDER BY s.deal_id, s.position)
         FROM deal_splits s WHERE s.deal_id IN (SELECT id FROM p))::text AS splits,
      ${counts}`.execute(db);
  const [result, counted] = await Promise.all([
    listed,
    byStatus ? undefined : query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const row = result.rows[0]!;
  const splits = splitsByDeal(JSON.parse(row.splits ?? "[]") as ListedSplit[]);
  const rows = (JSON.parse(row.page ?? "[]") as ListedRow[]).map((r) => toListedDeal(r, splits.get(r.id) ?? []));
  return counted
    ? { rows, total: Number(counted.n), deltaRows: 0 }
    : { rows, total: Number(row.total), deltaRows: Number(row.delta_rows) };
}

function splitsByDeal(splits: ListedSplit[]): Map<string, ListedSplit[]> {
  const byDeal = new Map<string, ListedSplit[]>();
  for (const split of splits) {
    const list = byDeal.get(split[0]);
    if (list) list.push(split);
    else byDeal.set(split[0], [split]);
  }
  return byDeal;
}

// How PostgreSQL's json renders a timestamptz(3) in a UTC session: "2026-01-02T02:56:39.12+00:00".
const UTC_JSON_TIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,3}))?\+00:00$/;

/** RFC 3339 UTC with milliseconds, without a Date round trip for the usual rendering. */
function iso(value: string | null): string | null {
  if (value === null) return null;
  const m = UTC_JSON_TIME.exec(value);
  return m ? `${m[1]}.${(m[2] ?? "").padEnd(3, "0")}Z` : new Date(value).toISOString();
}

/** The same shape as repository.toDeal, from the JSON row. */
function toListedDeal(r: ListedRow, splits: ListedSplit[]): Deal {
  const noPlan = splits.flatMap(([, user_id, , reason]) => (reason ? [{ user_id, reason }] : []));
  return {
    id: r.id,
    external_id: r.external_id,
    opportunity_name: r.opportunity_name,
    arr_amount: Number(r.arr_amount),
    currency: r.currency,
    deal_type: r.deal_type,
    close_date: r.close_date,
    owner_id: r.owner_id,
    splits: splits.map(([, user_id, percent]) => ({ user_id, percent: Number(percent) })),
    status: r.status,
    total_commission: Number(r.total_commission),
    rejection_reason: r.rejection_reason,
    approved_at: iso(r.approved_at),
    paid_at: iso(r.paid_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    explanation: dealExplanation(noPlan),
  };
}

// Query parameters that select no rows: any other one present is a filter deal_counts cannot answer.
const NOT_FILTERS: ReadonlySet<string> = new Set(["page", "per_page", "sort", "status"]);

/** True when the list is filtered by status alone (or not at all): its total is a sum of deal_counts. */
function countedByStatus(q: ListDealsQuery): boolean {
  return Object.entries(q).every(([name, value]) => value === undefined || NOT_FILTERS.has(name));
}

/**
 * The exact number of deals in these statuses (all deals without them) as `total`: the sum of the
 * deltas the triggers of 007_deal_counts.sql wrote; and how many delta rows that read, as `delta_rows`
 * (compaction folds them).
 */
function deltaSums(statuses: DealStatus[] | undefined) {
  const where = statuses ? sql`WHERE status = ANY(${statuses}::text[])` : sql``;
  return sql`(SELECT coalesce(sum(n), 0) FROM deal_counts ${where}) AS total,
    (SELECT count(*) FROM deal_counts ${where}) AS delta_rows`;
}

/**
 * Folds the deltas into one row per status, in one statement: readers see the same sums before and
 * after; concurrent writers only insert, so nothing waits; a concurrent compaction skips what this
 * one deleted.
 */
export async function compactDealCounts(db: Db): Promise<void> {
  await sql`
    WITH gone AS (DELETE FROM deal_counts RETURNING status, n)
    INSERT INTO deal_counts (status, n) SELECT status, sum(n) FROM gone GROUP BY status HAVING sum(n) <> 0`.execute(db);
}
