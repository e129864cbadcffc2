import { type RawBuilder, sql } from "kysely";
import { ofVisibleUsers } from "../access/index.js";
import { isoText } from "../db/sql.js";

// A deal as the API's JSON, rendered by PostgreSQL from the row `p` (GET /deals renders its page with it, a
// payout run's finalize the deals it pays): what toDeal (repository.ts) and JSON.stringify write for it.

export const p = (column: string) => sql.ref(`p.${column}`);
const s = (column: string) => sql.ref(`s.${column}`);
/** A decimal as its shortest text ("1200.5"): the text JavaScript writes for it when it has ≤ 15 significant digits. */
const shortDecimal = (value: RawBuilder<unknown>) => sql`trim_scale(${value})`;
const isoTime = (column: string) => isoText(p(column));
/** A string as JSON text: PostgreSQL's json escapes the characters JSON.stringify escapes, the same way. */
const jsonString = (value: RawBuilder<unknown>) => sql`to_json(${value})::text`;

// A split with a no-plan note: dealExplanation lists those (an empty note is none).
const NO_PLAN = sql`${s("no_plan_reason")} <> ''`;

/**
 * Of the deal `p`: its splits as JSON text, and its explanation's summary and no_plan items (null: none).
 * Per deal, joined LATERAL: grouping the page's splits by deal in one pass cost PostgreSQL 15 twice the time.
 */
export const SPLITS_TEXT = sql`SELECT
    '[' || string_agg('{"user_id":' || ${jsonString(s("user_id"))} || ',"percent":' || ${shortDecimal(s("percent"))}::text
      || '}', ',' ORDER BY ${s("position")}) || ']' AS splits,
    string_agg('no plan in force for ' || ${s("user_id")} || ': ' || ${s("no_plan_reason")}, '; ' ORDER BY ${s("position")})
      FILTER (WHERE ${NO_PLAN}) AS summary,
    string_agg('{"user_id":' || ${jsonString(s("user_id"))} || ',"reason":' || ${jsonString(s("no_plan_reason"))} || '}',
      ',' ORDER BY ${s("position")}) FILTER (WHERE ${NO_PLAN}) AS no_plan
  FROM deal_splits s WHERE ${s("deal_id")} = p.id`;

/**
 * Of the deal `p`, over its non-void lines (those of `visible` people only, when given), as `c`: `totals`,
 * the JSON text of commission_totals; `currency`, total_commission_currency; `total`, the Σ in it alone
 * (API.md §15; the rule commission-totals.ts states).
 */
export const totalsText = (visible: readonly string[] | null) => sql`SELECT y.totals, y.currency,
    coalesce((y.amounts ->> y.currency)::numeric, 0) AS total
  FROM (SELECT
      coalesce('[' || string_agg('{"currency":' || ${jsonString(sql.ref("x.currency"))} || ',"amount":'
        || ${shortDecimal(sql.ref("x.amount"))}::text || '}', ',' ORDER BY x.currency COLLATE "C") || ']', '[]') AS totals,
      CASE WHEN count(*) = 1 THEN min(x.currency)
        ELSE coalesce(min(x.currency COLLATE "C") FILTER (WHERE x.owner_plan), ${p("currency")}) END AS currency,
      jsonb_object_agg(x.currency, x.amount) AS amounts
    FROM (SELECT l.currency, sum(l.amount) AS amount, bool_or(l.kind = 'plan' AND l.user_id = ${p("owner_id")}) AS owner_plan
      FROM commission_lines l WHERE l.deal_id = ${p("id")} AND l.status <> 'void'
        ${visible ? sql`AND ${ofVisibleUsers("l.user_id", visible)}` : sql``}
      GROUP BY l.currency) x) y`;

/**
 * The deal `p` with its splits `n` and its totals `c` as the columns of a Deal, in the schema's order: row_to_json of it is the
 * text JSON.stringify writes for the Deal (API.md) when its decimals have ≤ 15 significant digits.
 */
export const listedDeal = (
  scope: "deal" | "visible",
) => sql`SELECT ${p("id")}, ${p("external_id")}, ${p("opportunity_name")},
    ${shortDecimal(p("arr_amount"))} AS arr_amount, ${p("currency")}, ${p("deal_type")}, ${p("close_date")}, ${p("owner_id")},
    coalesce(n.splits, '[]')::json AS splits, ${p("status")}, ${shortDecimal(sql.ref("c.total"))} AS total_commission,
    ${sql.lit(scope)}::text AS total_commission_scope, c.currency AS total_commission_currency,
    c.totals::json AS commission_totals, ${p("rejection_reason")}, ${isoTime("approved_at")} AS approved_at, ${isoTime("paid_at")} AS paid_at,
    ${p("contract_start")}, ${p("contract_end")}, ${isoTime("cancelled_at")} AS cancelled_at, ${p("cancel_reason")},
    ${p("cancel_effective_date")}, ${shortDecimal(p("refunded_amount"))} AS refunded_amount,
    ${isoTime("created_at")} AS created_at, ${isoTime("updated_at")} AS updated_at,
    ('{"summary":' || ${jsonString(sql.ref("n.summary"))} || ',"no_plan":[' || n.no_plan || ']}')::json AS explanation,
    ${p("fx_missing")}::json AS fx_missing`;

/** The deal `p` as the API's JSON (jsonb), its splits read for it alone. */
export const dealJsonb = sql`(SELECT to_jsonb(d) FROM (${SPLITS_TEXT}) n CROSS JOIN LATERAL (${totalsText(null)}) c
  CROSS JOIN LATERAL (${listedDeal("deal")}) d)`;
