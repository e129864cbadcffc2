import { type Selectable, sql } from "kysely";
import { dealExplanation } from "../commissions/index.js";
import type { Tx } from "../context.js";
import type { Db, DealsTable } from "../db/schema.js";
import { anyOf, insertRecords, updateRecords } from "../db/sql.js";
import { DEAL_COLUMNS, DEAL_SPLIT_COLUMNS } from "../db/tables-sales.js";
import { toIso } from "../http/date-fields.js";
import type { Deal } from "./schema.js";

type Row = Selectable<DealsTable>;

export interface SplitRecord {
  user_id: string;
  percent: string;
  no_plan_reason?: string | null;
}

/** A deal with exact decimal strings; what services compare and write. */
export type DealRecord = Row & { splits: SplitRecord[] };

/** Every column of the deals table, in table order. */
export const DEAL_COLUMN_NAMES = Object.keys(DEAL_COLUMNS) as (keyof DealsTable)[];

/** A deal as the API shows it (GET /deals renders the same in SQL: list-query.ts). */
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
    total_commission: Number(r.total_commission),
    rejection_reason: r.rejection_reason,
    approved_at: toIso(r.approved_at),
    paid_at: toIso(r.paid_at),
    created_at: toIso(r.created_at)!,
    updated_at: toIso(r.updated_at)!,
    explanation: dealExplanation(noPlan),
  };
}

const date = (v: Date | string | null) => (v === null ? null : new Date(v));

function toRecord(row: Row, splits: SplitRecord[]): DealRecord {
  return {
    ...row,
    splits,
    approved_at: date(row.approved_at),
    paid_at: date(row.paid_at),
    created_at: new Date(row.created_at),
    updated_at: new Date(row.updated_at),
  };
}

async function splitsOf(db: Db, dealIds: string[]): Promise<Map<string, SplitRecord[]>> {
  const splits = await db
    .selectFrom("deal_splits")
    .select(["deal_id", "user_id", "percent", "no_plan_reason"])
    .where(anyOf("deal_id", dealIds))
    .orderBy("deal_id")
    .orderBy("position")
    .execute();
  const byDeal = new Map<string, SplitRecord[]>();
  for (const { deal_id, ...split } of splits) byDeal.set(deal_id, [...(byDeal.get(deal_id) ?? []), split]);
  return byDeal;
}

async function withSplits(db: Db, rows: Row[]): Promise<DealRecord[]> {
  if (rows.length === 0) return [];
  const byDeal = await splitsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toRecord(r, byDeal.get(r.id) ?? []));
}

function columns(r: DealRecord): Row {
  const { splits: _splits, ...row } = r;
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
    })),
  );
}

// A rewrite keeps the id, the creation time, the total (the recalculation's) and the workflow's stamps.
const KEPT_ON_REWRITE: ReadonlySet<keyof DealsTable> = new Set([
  "id",
  "created_at",
  "total_commission",
  "approved_at",
  "paid_at",
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
  return row && toRecord(row, splits.get(id) ?? []);
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

/** Serializes upserts of one CRM id (an advisory lock: the row may not exist yet). Sorted: no deadlock. */
export async function lockExternalIds(tx: Tx, externalIds: string[]): Promise<void> {
  if (externalIds.length === 0) return;
  const ids = [...new Set(externalIds)].sort();
  await sql`SELECT pg_advisory_xact_lock(7150422, hashtext(x)) FROM (SELECT x FROM unnest(${ids}::text[]) AS x ORDER BY x COLLATE "C") AS s`.execute(
    tx,
  );
}
