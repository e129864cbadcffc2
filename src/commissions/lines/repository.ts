import { type Selectable, sql } from "kysely";
import { ofVisibleUsers, type Visible } from "../../access/index.js";
import type { Tx } from "../../context.js";
import type { CommissionLinesTable, Db } from "../../db/schema.js";
import { toIso } from "../../http/date-fields.js";
import type { Commission, ExportCommissionsQuery, ListCommissionsQuery } from "../schema.js";
import type { CsvLine } from "./csv.js";

type Row = Selectable<CommissionLinesTable>;

// jsonb stores keys in its own order; explanations read back in the order rule 8 lists them.
const KEY_ORDER = [
  ...["summary", "plan_id", "plan_version", "from_version", "to_version", "original_line_id", "spiff_id"],
  ...["spiff_name", "reason", "author", "dispute", "retroactive", "period"],
  ...["quota", "credit", "basis", "percent", "factor", "window", "close_date", "effective_date", "days"],
  ...[
    "window_days",
    "trigger",
    "target",
    "already_clawed_back",
    "line_ids",
    "prior_attainment",
    "criteria_met",
    "payout",
    "bands",
    "multiplier",
    "cap",
  ],
  ...[
    "min_deal_amount",
    "unrounded",
    "type",
    "from",
    "to",
    "rate",
    "amount",
    "commission",
    "limit",
    "before",
    "applied",
    "explanation",
    "after",
    "kind",
    "numerator",
    "denominator",
    "value",
  ],
];

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (!value || typeof value !== "object") return value;
  const rank = (k: string) => (KEY_ORDER.includes(k) ? KEY_ORDER.indexOf(k) : KEY_ORDER.length);
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
  return Object.fromEntries(keys.map((k) => [k, ordered((value as Record<string, unknown>)[k])]));
}

export function toCommission(row: Row): Commission {
  return {
    id: row.id,
    deal_id: row.deal_id,
    user_id: row.user_id,
    plan_id: row.plan_id,
    plan_version: row.plan_version,
    spiff_id: row.spiff_id,
    kind: row.kind,
    period: row.period,
    amount: Number(row.amount),
    status: row.status,
    locked: row.locked,
    explanation: ordered(row.explanation) as Commission["explanation"],
    calculated_at: toIso(row.calculated_at)!,
    currency: row.currency,
    payout_run_id: row.payout_run_id,
    draw_id: row.draw_id,
  };
}

export async function findLine(db: Db, id: string): Promise<Commission | undefined> {
  const row = await db.selectFrom("commission_lines").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toCommission(row);
}

/** Rule 8 for adjustment lines (built by `adjustmentExplanation`): `amount` a JSON number, like every line's. */
export interface AdjustmentExplanation {
  summary: string;
  reason: string;
  author: { key_id: string | null; name: string };
  dispute?: { id: string; outcome: string; previous_total: string; accepted_total: string };
  retroactive?: RetroactiveSource;
  period: string;
  amount: number;
}

/** A retroactive correction's source (API.md §12): the plan versions, the line it corrects, both computations. */
export interface RetroactiveSource {
  plan_id: string;
  from_version: number;
  to_version: number;
  original_line_id: string;
  /** What the line paid before the change (its amount plus earlier corrections) and its stored explanation. */
  before: { amount: string; explanation: unknown };
  after: { amount: string; explanation: unknown };
}

interface NewAdjustmentRow {
  id: string;
  deal_id: string;
  user_id: string;
  period: string;
  amount: string;
  /** The line's own currency (API.md §15), written explicitly: the deal's is only the insert trigger's fallback. */
  currency: string;
  explanation: AdjustmentExplanation;
  /** The locked line a retroactive correction adjusts. */
  adjusts_line_id?: string;
}

/** An approved, locked `adjustment` line (a dispute's resolution or a manual adjustment). */
export async function insertAdjustments(tx: Tx, lines: NewAdjustmentRow[], now: Date): Promise<void> {
  if (lines.length === 0) return;
  await tx
    .insertInto("commission_lines")
    .values(
      lines.map((line) => ({
        ...line,
        plan_id: null,
        plan_version: null,
        spiff_id: null,
        kind: "adjustment" as const,
        status: "approved" as const,
        locked: true,
        explanation: JSON.stringify(line.explanation),
        calculated_at: now,
        created_at: now,
      })),
    )
    .execute();
}

/** The period of the user's plan line on this deal, if any (where an adjustment to it belongs). */
export async function planPeriodOf(db: Db, dealId: string, userId: string): Promise<string | undefined> {
  return (await planLineOf(db, dealId, userId))?.period;
}

/** The period and currency of the user's plan line on this deal (a non-void one first), if any. */
export async function planLineOf(
  db: Db,
  dealId: string,
  userId: string,
): Promise<{ period: string; currency: string } | undefined> {
  return db
    .selectFrom("commission_lines")
    .select(["period", "currency"])
    .where("deal_id", "=", dealId)
    .where("user_id", "=", userId)
    .where("kind", "=", "plan")
    .orderBy(sql`status = 'void'`)
    .limit(1)
    .executeTakeFirst();
}

function filtered(db: Db, q: ExportCommissionsQuery, visible: Visible) {
  let query = db.selectFrom("commission_lines");
  if (visible) query = query.where(ofVisibleUsers("user_id", visible));
  if (q.user_id) query = query.where("user_id", "=", q.user_id);
  if (q.deal_id) query = query.where("deal_id", "=", q.deal_id);
  if (q.status) query = query.where("status", "in", q.status);
  // Draw lines (API.md §18) have no deal: listed only when `kind` names draw.
  query = q.kind ? query.where("kind", "in", q.kind) : query.where("kind", "<>", "draw");
  if (q.period) query = query.where("period", "=", q.period);
  if (q.currency) query = query.where("currency", "=", q.currency);
  if (q.payout_run_id) query = query.where("payout_run_id", "=", q.payout_run_id);
  if (q.draw_id) query = query.where("draw_id", "=", q.draw_id);
  return query;
}

export async function listLines(db: Db, q: ListCommissionsQuery, visible: Visible, limit: number, offset: number) {
  const query = filtered(db, q, visible);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toCommission), total: Number(count.n) };
}

/**
 * A digest of exactly what the CSV export of `q` shows (every column, in list order), for its ETag
 * without reading the lines twice through Node: equal digests mean byte-equal exports.
 */
export async function exportDigest(db: Db, q: ExportCommissionsQuery, visible: Visible): Promise<string> {
  const row = await filtered(db, q, visible)
    .select(
      sql<string>`md5(coalesce(string_agg(md5(row(id, deal_id, user_id, kind, period, amount, status, plan_id,
        spiff_id, extract(epoch from calculated_at), explanation->>'summary')::text), '' ORDER BY created_at DESC, id DESC), ''))`.as(
        "digest",
      ),
    )
    .executeTakeFirstOrThrow();
  return row.digest;
}

/**
 * Every matching line in list order, as the CSV export shows it, a page of `chunk` rows at a time (keyset,
 * so no row is skipped or repeated). Of the explanation only its summary is read: the whole jsonb, parsed
 * and put in key order, was most of the export's time on the server's thread (issue #19, no stall).
 */
export async function* allLines(
  db: Db,
  q: ExportCommissionsQuery,
  visible: Visible,
  chunk = 500,
): AsyncGenerator<CsvLine[]> {
  let after: { created_at: Date; id: string } | null = null;
  for (;;) {
    let query = filtered(db, q, visible);
    if (after) {
      const { created_at, id } = after;
      query = query.where((eb) =>
        eb.or([eb("created_at", "<", created_at), eb.and([eb("created_at", "=", created_at), eb("id", "<", id)])]),
      );
    }
    const rows = await query
      .select(["id", "deal_id", "user_id", "kind", "period", "amount", "currency", "status", "plan_id", "spiff_id"])
      .select(["calculated_at", "created_at", sql<string | null>`explanation->>'summary'`.as("summary")])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(chunk)
      .execute();
    if (rows.length === 0) return;
    yield rows.map(({ created_at: _, summary, amount, calculated_at, ...line }) => ({
      ...line,
      amount: Number(amount),
      calculated_at: toIso(calculated_at)!,
      explanation: { summary },
    }));
    const last = rows[rows.length - 1]!;
    after = { created_at: new Date(last.created_at), id: last.id };
    if (rows.length < chunk) return;
  }
}

/** What a payout run's lines can be narrowed to. */
