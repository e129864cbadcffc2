import { type RawBuilder, sql } from "kysely";
import { ofVisibleDeals, ofVisibleUsers, type Visible } from "../access/index.js";
import type { Db } from "../db/schema.js";
import { containsText } from "../db/sql.js";
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

const p = (column: string) => sql.ref(`p.${column}`);
const s = (column: string) => sql.ref(`s.${column}`);
/** A decimal as its shortest text ("1200.5"): the text JavaScript writes for it when it has ≤ 15 significant digits. */
const shortDecimal = (value: RawBuilder<unknown>) => sql`trim_scale(${value})`;
/** RFC 3339 UTC with milliseconds, as toIso writes it. */
const isoTime = (column: string) => sql`to_char(${p(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** A string as JSON text: PostgreSQL's json escapes the characters JSON.stringify escapes, the same way. */
const jsonString = (value: RawBuilder<unknown>) => sql`to_json(${value})::text`;

// A split with a no-plan note: dealExplanation lists those (an empty note is none).
const NO_PLAN = sql`${s("no_plan_reason")} <> ''`;

/**
 * Of the deal `p`: its splits as JSON text, and its explanation's summary and no_plan items (null: none).
 * Per deal, joined LATERAL: grouping the page's splits by deal in one pass cost PostgreSQL 15 twice the time.
 */
const SPLITS_TEXT = sql`SELECT
    '[' || string_agg('{"user_id":' || ${jsonString(s("user_id"))} || ',"percent":' || ${shortDecimal(s("percent"))}::text
      || '}', ',' ORDER BY ${s("position")}) || ']' AS splits,
    string_agg('no plan in force for ' || ${s("user_id")} || ': ' || ${s("no_plan_reason")}, '; ' ORDER BY ${s("position")})
      FILTER (WHERE ${NO_PLAN}) AS summary,
    string_agg('{"user_id":' || ${jsonString(s("user_id"))} || ',"reason":' || ${jsonString(s("no_plan_reason"))} || '}',
      ',' ORDER BY ${s("position")}) FILTER (WHERE ${NO_PLAN}) AS no_plan
  FROM deal_splits s WHERE ${s("deal_id")} = p.id`;

/**
 * The deal `p` with its splits `n` as the columns of a Deal, in the schema's order: row_to_json of it is the
 * text JSON.stringify writes for the Deal (API.md) when its decimals have ≤ 15 significant digits.
 */
const listedDeal = (scope: "deal" | "visible") => sql`SELECT ${p("id")}, ${p("external_id")}, ${p("opportunity_name")},
    ${shortDecimal(p("arr_amount"))} AS arr_amount, ${p("currency")}, ${p("deal_type")}, ${p("close_date")}, ${p("owner_id")},
    coalesce(n.splits, '[]')::json AS splits, ${p("status")}, ${shortDecimal(p("total_commission"))} AS total_commission,
    ${sql.lit(scope)}::text AS total_commission_scope, ${p("rejection_reason")}, ${isoTime("approved_at")} AS approved_at, ${isoTime("paid_at")} AS paid_at,
    ${p("contract_start")}, ${p("contract_end")}, ${isoTime("cancelled_at")} AS cancelled_at, ${p("cancel_reason")},
    ${p("cancel_effective_date")}, ${shortDecimal(p("refunded_amount"))} AS refunded_amount,
    ${isoTime("created_at")} AS created_at, ${isoTime("updated_at")} AS updated_at,
    ('{"summary":' || ${jsonString(sql.ref("n.summary"))} || ',"no_plan":[' || n.no_plan || ']}')::json AS explanation`;

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
  // Money has 2 decimals: below 10^13 it has at most 15 significant digits (numeric(7, 4) percents always do).
  const listed = sql<{
    page: string | null;
    short_numbers: boolean | null;
    total: string | null;
    delta_rows: string | null;
  }>`
    WITH p AS (${page})
    SELECT
      (SELECT '[' || string_agg(row_to_json(d)::text, ',' ORDER BY ${p(column)} ${direction}, p.id ${direction}) || ']'
         FROM p CROSS JOIN LATERAL (${SPLITS_TEXT}) n CROSS JOIN LATERAL (${listedDeal(visible ? "visible" : "deal")}) d) AS page,
      (SELECT bool_and(abs(p.arr_amount) < 1e13 AND abs(p.total_commission) < 1e13 AND p.refunded_amount < 1e13) FROM p)
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
