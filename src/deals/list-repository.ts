import { sql } from "kysely";
import { ofVisibleDeals, ofVisibleUsers, type Visible } from "../access/index.js";
import type { Db } from "../db/schema.js";
import { containsText } from "../db/sql.js";
import { listedDeal, p, SPLITS_TEXT, totalsText } from "./deal-json-repository.js";
import { DEAL_COLUMN_NAMES } from "./repository.js";
import type { DealStatus, ListDealsQuery } from "./schema.js";

/** The SQL of GET /deals: one page, the splits of its deals, and its exact total. */

function filtered(db: Db, q: ListDealsQuery, visible: Visible) {
  let query = db.selectFrom("deals");
  if (visible) query = query.where(ofVisibleDeals("deals.id", visible));
  if (q.status) query = query.where("status", "in", q.status);
  if (q.owner_id) query = query.where("owner_id", "=", q.owner_id);
  if (q.close_date_from) query = query.where("close_date", ">=", q.close_date_from);
  if (q.close_date_to) query = query.where("close_date", "<=", q.close_date_to);
  if (q.updated_since) query = query.where("updated_at", ">=", new Date(q.updated_since));
  if (q.external_id) query = query.where("external_id", "=", q.external_id);
  if (q.q) query = query.where(containsText(["opportunity_name"], q.q));
  if (q.deal_type) query = query.where("deal_type", "in", q.deal_type);
  if (q.fx_missing !== undefined) query = query.where("fx_missing", q.fx_missing ? "<>" : "=", "[]");
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
 * API.md §20 (b): for a reader who sees only some people, a deal's total is the sum of those people's
 * non-void lines (commission_lines_deal_idx per deal); it stands in for the column, sorting included.
 */
function visibleTotal(visible: readonly string[]) {
  return sql<string>`(SELECT coalesce(sum(l.amount), 0) FROM commission_lines l
    WHERE l.deal_id = deals.id AND l.status <> 'void' AND ${ofVisibleUsers("l.user_id", visible)})`;
}

const COLUMNS_BUT_TOTAL = DEAL_COLUMN_NAMES.filter((c) => c !== "total_commission");

/** One page of GET /deals as JSON text, and its exact total. */
export interface ListedPage {
  /** The `data` array as the zod serializer of `Deal[]` writes it. */
  dataText: string;
  total: number;
  /** deal_counts rows summed for the total (compaction folds them). */
  deltaRows: number;
}

/**
 * The page and its total, in one statement when the total is a sum of deal_counts (else with a count(*)
 * beside it). PostgreSQL renders the page as the response's `data` text: a driver decodes one field
 * instead of ~2,000 (on PGlite, decoding fields one by one cost more than running the query), and the
 * server sends it without parsing, building and serializing 100 deals (bench/README.md).
 */
export async function listDeals(
  db: Db,
  q: ListDealsQuery,
  visible: Visible,
  limit: number,
  offset: number,
): Promise<ListedPage> {
  const query = filtered(db, q, visible);
  const desc = q.sort.startsWith("-");
  const column = (desc ? q.sort.slice(1) : q.sort) as "created_at" | "close_date" | "arr_amount" | "total_commission";
  const direction = sql.raw(desc ? "DESC" : "ASC");
  // The output column total_commission (a visible sum for a narrowed reader) is what ORDER BY names.
  const page = (
    visible
      ? query.select([...COLUMNS_BUT_TOTAL, visibleTotal(visible).as("total_commission")])
      : query.select(DEAL_COLUMN_NAMES)
  )
    .orderBy(column, desc ? "desc" : "asc")
    .orderBy("id", desc ? "desc" : "asc")
    .limit(limit)
    .offset(offset);
  const byStatus = visible === null && countedByStatus(q);
  const counts = byStatus ? deltaSums(q.status) : sql`NULL::numeric AS total, NULL::bigint AS delta_rows`;
  // Money has at most 3 decimals (API.md §15): below 10^12 it has at most 15 significant digits (numeric(7, 4) percents always do).
  const listed = sql<{
    page: string | null;
    short_numbers: boolean | null;
    total: string | null;
    delta_rows: string | null;
  }>`
    WITH p AS (${page})
    SELECT
      (SELECT '[' || string_agg(row_to_json(d)::text, ',' ORDER BY ${p(column)} ${direction}, p.id ${direction}) || ']'
         FROM p CROSS JOIN LATERAL (${SPLITS_TEXT}) n CROSS JOIN LATERAL (${totalsText(visible)}) c
           CROSS JOIN LATERAL (${listedDeal(visible ? "visible" : "deal")}) d) AS page,
      (SELECT bool_and(abs(p.arr_amount) < 1e12 AND abs(p.total_commission) < 1e12 AND p.refunded_amount < 1e12) FROM p)
        AS short_numbers,
      ${counts}`.execute(db);
  const [result, counted] = await Promise.all([
    listed,
    byStatus ? undefined : query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const row = result.rows[0]!;
  const text = row.page ?? "[]";
  // Longer decimals: JavaScript writes the nearest double, as JSON.parse then JSON.stringify would.
  const dataText = row.short_numbers === false ? JSON.stringify(JSON.parse(text)) : text;
  return counted
    ? { dataText, total: Number(counted.n), deltaRows: 0 }
    : { dataText, total: Number(row.total), deltaRows: Number(row.delta_rows) };
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
