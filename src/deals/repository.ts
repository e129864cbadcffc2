import { type Selectable, sql } from "kysely";
import { dealExplanation } from "../commissions/index.js";
import type { Tx } from "../context.js";
import type { Db, DealsTable } from "../db/schema.js";
import { anyOf, insertRecords, updateRecords } from "../db/sql.js";
import { DEAL_COLUMNS, DEAL_SPLIT_COLUMNS } from "../db/tables-sales.js";
import { toIso } from "../http/date-fields.js";
import { commissionTotals, type LineSum } from "./commission-totals.js";
import type { Deal } from "./schema.js";

type Row = Selectable<DealsTable>;

export interface SplitRecord {
  user_id: string;
  percent: string;
  no_plan_reason?: string | null;
  /** The credited user's name, as read with the splits (a record built from a request has none). */
  name?: string;
}

/**
 * A deal with exact decimal strings; what services compare and write. `line_sums`: its non-void lines
 * summed per person and currency, as read with the splits (none: a deal without lines).
 */
export type DealRecord = Row & { splits: SplitRecord[]; owner_name?: string; line_sums?: LineSum[] };

/** Every column of the deals table, in table order. */
export const DEAL_COLUMN_NAMES = Object.keys(DEAL_COLUMNS) as (keyof DealsTable)[];

/** A deal as the API shows it (GET /deals renders the same in SQL: list-repository.ts). */
export function toDeal(r: DealRecord): Deal {
  const noPlan = r.splits.flatMap((s) => (s.no_plan_reason ? [{ user_id: s.user_id, reason: s.no_plan_reason }] : []));
  return {
    id: r.id,
    external_id: r.external_id,
    opportunity_name: r.opportunity_name,
    arr_amount: Number(r.arr_amount),
    currency: r.currency,
    deal_type: r.deal_type,
    close_date: r.close_date,
    owner_id: r.owner_id,
    splits: r.splits.map((s) => ({ user_id: s.user_id, percent: Number(s.percent) })),
    status: r.status,
    ...withScope(commissionTotals(r.line_sums ?? [], r), "deal"),
    rejection_reason: r.rejection_reason,
    approved_at: toIso(r.approved_at),
    paid_at: toIso(r.paid_at),
    contract_start: r.contract_start,
    contract_end: r.contract_end,
    cancelled_at: toIso(r.cancelled_at),
    cancel_reason: r.cancel_reason,
    cancel_effective_date: r.cancel_effective_date,
    refunded_amount: Number(r.refunded_amount),
    created_at: toIso(r.created_at)!,
    updated_at: toIso(r.updated_at)!,
    explanation: dealExplanation(noPlan),
    fx_missing: JSON.parse(r.fx_missing) as Deal["fx_missing"],
  };
}

/** The totals in the schema's order, whose sums they are between total_commission and its currency. */
export function withScope(totals: ReturnType<typeof commissionTotals>, scope: Deal["total_commission_scope"]) {
  return {
    total_commission: totals.total_commission,
    total_commission_scope: scope,
    total_commission_currency: totals.total_commission_currency,
    commission_totals: totals.commission_totals,
  };
}

const date = (v: Date | string | null) => (v === null ? null : new Date(v));

function toRecord(row: Row, read: ReadSplits | undefined): DealRecord {
  return {
    ...row,
    splits: read?.splits ?? [],
    ...(read && { owner_name: read.ownerName, line_sums: read.lineSums }),
    approved_at: date(row.approved_at),
    paid_at: date(row.paid_at),
    cancelled_at: date(row.cancelled_at),
    created_at: new Date(row.created_at),
    updated_at: new Date(row.updated_at),
  };
}

interface ReadSplits {
  splits: SplitRecord[];
  ownerName: string;
  lineSums: LineSum[];
}

/** Of the split row's deal: its non-void lines summed per person, currency and plan-or-not, as JSON. */
const LINE_SUMS = sql<LineSum[]>`(SELECT coalesce(json_agg(x), '[]') FROM (
    SELECT l.user_id, l.currency, l.kind = 'plan' AS plan, trim_scale(sum(l.amount))::text AS amount
    FROM commission_lines l WHERE l.deal_id = s.deal_id AND l.status <> 'void'
    GROUP BY l.user_id, l.currency, l.kind = 'plan') x)`;

/**
 * The deals' splits, with the names of the credited users and of the owner (a deal's page names the
 * people on it: API.md §20 b shows a rep their partners by name): read in the splits' one statement.
 */
async function splitsOf(db: Db, dealIds: string[]): Promise<Map<string, ReadSplits>> {
  const splits = await db
    .selectFrom("deal_splits as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .innerJoin("deals as d", "d.id", "s.deal_id")
    .innerJoin("users as o", "o.id", "d.owner_id")
    .select(["s.deal_id", "s.user_id", "s.percent", "s.no_plan_reason", "u.name", "o.name as owner_name"])
    // The deal's line sums, once (on its first split): a deal's lines move with it, read with its splits.
    .select(
      sql<
        LineSum[] | null
      >`CASE WHEN s.position = min(s.position) OVER (PARTITION BY s.deal_id) THEN ${LINE_SUMS} END`.as("line_sums"),
    )
    .where(anyOf("s.deal_id", dealIds))
    .orderBy("s.deal_id")
    .orderBy("s.position")
    .execute();
  const byDeal = new Map<string, ReadSplits>();
  for (const { deal_id, owner_name, line_sums, ...split } of splits) {
    const read = byDeal.get(deal_id) ?? { splits: [], ownerName: owner_name, lineSums: [] };
    if (line_sums) read.lineSums = typeof line_sums === "string" ? JSON.parse(line_sums) : line_sums;
    read.splits.push(split);
    byDeal.set(deal_id, read);
  }
  return byDeal;
}

async function withSplits(db: Db, rows: Row[]): Promise<DealRecord[]> {
  if (rows.length === 0) return [];
  const byDeal = await splitsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toRecord(r, byDeal.get(r.id)));
}

function columns(r: DealRecord): Row {
  const { splits: _splits, owner_name: _owner, line_sums: _sums, ...row } = r;
  return row;
}

function splitRows(records: DealRecord[]) {
  return records.flatMap((r) =>
    r.splits.map((s, position) => ({
      deal_id: r.id,
      user_id: s.user_id,
      position,
      percent: s.percent,
      close_date: r.close_date,
      no_plan_reason: null,
      fx_missing: null,
    })),
  );
}

// A rewrite keeps the id, the creation time, the total (the recalculation's) and the workflow's stamps
// (cancellation and refunds included: API.md §14).
const KEPT_ON_REWRITE: ReadonlySet<keyof DealsTable> = new Set([
  "id",
  "created_at",
  "total_commission",
  "approved_at",
  "paid_at",
  "cancelled_at",
  "cancel_reason",
  "cancel_effective_date",
  "refunded_amount",
  "fx_missing",
  "override_fx_missing",
]);
const REWRITTEN_COLUMNS = DEAL_COLUMN_NAMES.filter((c) => !KEPT_ON_REWRITE.has(c));

/** Inserts deals and their splits, two statements for any number of deals. */
export async function insertDeals(tx: Tx, records: DealRecord[]): Promise<void> {
  if (records.length === 0) return;
  await insertRecords(tx, "deals", DEAL_COLUMNS, records.map(columns));
  await insertRecords(tx, "deal_splits", DEAL_SPLIT_COLUMNS, splitRows(records));
}

/** Rewrites deals and their splits, a few statements for any number (no-plan notes are redone by the recalculation). */
export async function updateDeals(tx: Tx, records: DealRecord[]): Promise<void> {
  for (let i = 0; i < records.length; i += 500) {
    const part = records.slice(i, i + 500);
    await updateRecords(tx, "deals", DEAL_COLUMNS, "id", REWRITTEN_COLUMNS, part.map(columns));
    await tx
      .deleteFrom("deal_splits")
      .where(
        anyOf(
          "deal_id",
          part.map((r) => r.id),
        ),
      )
      .execute();
    await insertRecords(tx, "deal_splits", DEAL_SPLIT_COLUMNS, splitRows(part));
  }
}

export async function deleteDeal(tx: Tx, id: string): Promise<void> {
  await tx.deleteFrom("deals").where("id", "=", id).execute();
}

/** The deal and its splits are read at once: on PostgreSQL two connections, one round trip's wait. */
export async function findDeal(db: Db, id: string): Promise<DealRecord | undefined> {
  const [row, splits] = await Promise.all([
    db.selectFrom("deals").selectAll().where("id", "=", id).executeTakeFirst(),
    splitsOf(db, [id]),
  ]);
  return row && toRecord(row, splits.get(id));
}

export async function findDeals(db: Db, ids: string[]): Promise<DealRecord[]> {
  if (ids.length === 0) return [];
  return withSplits(db, await db.selectFrom("deals").selectAll().where(anyOf("id", ids)).execute());
}

/** SELECT … FOR UPDATE: concurrent edits of one deal serialize; the loser re-reads the winner's result. */
export async function lockDeal(tx: Tx, id: string): Promise<DealRecord | undefined> {
  const row = await tx.selectFrom("deals").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  return row && (await withSplits(tx, [row]))[0];
}

export async function findByExternalIds(db: Db, externalIds: string[]): Promise<DealRecord[]> {
  if (externalIds.length === 0) return [];
  return withSplits(db, await db.selectFrom("deals").selectAll().where(anyOf("external_id", externalIds)).execute());
}

/**
 * Advisory locks an upsert takes, one per slot of its CRM ids' hashes: a CSV import's 50,000 ids in one
 * transaction would overflow PostgreSQL's lock table (64 per connection by default) one lock an id.
 */
const EXTERNAL_ID_SLOTS = 1024;

/**
 * Serializes upserts of one CRM id (an advisory lock on its hash's slot: the row may not exist yet; ids
 * sharing a slot wait for each other too). Sorted: no deadlock.
 */
export async function lockExternalIds(tx: Tx, externalIds: string[]): Promise<void> {
  if (externalIds.length === 0) return;
  const ids = [...new Set(externalIds)];
  await sql`SELECT pg_advisory_xact_lock(7150422, slot) FROM (SELECT DISTINCT hashtext(x) & ${sql.lit(EXTERNAL_ID_SLOTS - 1)} AS slot FROM unnest(${ids}::text[]) AS x ORDER BY slot) AS s`.execute(
    tx,
  );
}
