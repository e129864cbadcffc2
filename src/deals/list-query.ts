import { sql } from "kysely";
import { ofVisibleDeals, type Visible } from "../access/index.js";
import type { Db } from "../db/schema.js";
import { DEAL_COLUMN_NAMES, type DealSource, type SplitRecord, toDeal } from "./repository.js";
import type { DealStatus, ListDealsQuery } from "./schema.js";

/** The SQL of GET /deals: one page, the splits of its deals, and its exact total. */

/** [deal_id, user_id, percent, no_plan_reason], in split order. */
type ListedSplit = [string, string, number, string | null];

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function filtered(db: Db, q: ListDealsQuery, visible: Visible) {
  let query = db.selectFrom("deals");
  if (visible) query = query.where(ofVisibleDeals("deals.id", visible));
  if (q.status) query = query.where("status", "in", q.status);
  if (q.owner_id) query = query.where("owner_id", "=", q.owner_id);
  if (q.close_date_from) query = query.where("close_date", ">=", q.close_date_from);
  if (q.close_date_to) query = query.where("close_date", "<=", q.close_date_to);
  if (q.updated_since) query = query.where("updated_at", ">=", new Date(q.updated_since));
  if (q.external_id) query = query.where("external_id", "=", q.external_id);
  if (q.q) query = query.where(sql<boolean>`opportunity_name ILIKE ${`%${escapeLike(q.q)}%`}`);
  if (q.deal_type) query = query.where("deal_type", "in", q.deal_type);
  // Compared as numeric parameters against the bare column, so deals_arr_amount_idx can bound a range.
  if (q.arr_amount_min) query = query.where("arr_amount", ">=", sql<string>`${q.arr_amount_min}::numeric`);
  if (q.arr_amount_max) query = query.where("arr_amount", "<=", sql<string>`${q.arr_amount_max}::numeric`);
  // A semi-join through commission_lines_bucket_idx (plan_id, … WHERE kind = 'plan'): the plan's lines only.
  if (q.plan_id) {
    const planId = q.plan_id;
    query = query.where("id", "in", (eb) =>
      eb
        .selectFrom("commission_lines")
        .select("commission_lines.deal_id")
        .where("commission_lines.plan_id", "=", planId)
        .where("commission_lines.kind", "=", "plan")
        .where("commission_lines.status", "<>", "void"),
    );
  }
  return query;
}

/**
 * The page, its splits and its total, in one statement when the total is a sum of deal_counts (else
 * with a count(*) beside it). The page and the splits come back as one JSON text each: a driver then
 * parses two fields instead of ~2,000 (on PGlite, decoding fields one by one cost more than running
 * the query; bench/README.md).
 */
export async function listDeals(db: Db, q: ListDealsQuery, visible: Visible, limit: number, offset: number) {
  const query = filtered(db, q, visible);
  const desc = q.sort.startsWith("-");
  const column = (desc ? q.sort.slice(1) : q.sort) as "created_at" | "close_date" | "arr_amount" | "total_commission";
  const direction = sql.raw(desc ? "DESC" : "ASC");
  const page = query
    .select(DEAL_COLUMN_NAMES)
    .orderBy(column, desc ? "desc" : "asc")
    .orderBy("id", desc ? "desc" : "asc")
    .limit(limit)
    .offset(offset);
  const byStatus = visible === null && countedByStatus(q);
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
  // The parsed rows are ours: given their splits in place, as a spread per row cost ~20× the mapping (V8).
  const rows = (JSON.parse(row.page ?? "[]") as DealSource[]).map((r) => {
    r.splits = splits.get(r.id) ?? [];
    return toDeal(r);
  });
  return counted
    ? { rows, total: Number(counted.n), deltaRows: 0 }
    : { rows, total: Number(row.total), deltaRows: Number(row.delta_rows) };
}

function splitsByDeal(splits: ListedSplit[]): Map<string, SplitRecord[]> {
  const byDeal = new Map<string, SplitRecord[]>();
  for (const [dealId, user_id, percent, no_plan_reason] of splits) {
    const split = { user_id, percent: String(percent), no_plan_reason };
    const list = byDeal.get(dealId);
    if (list) list.push(split);
    else byDeal.set(dealId, [split]);
  }
  return byDeal;
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
