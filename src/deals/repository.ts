import { type Selectable, sql } from "kysely";
import { insertRecords } from "../commissions/batch-sql.js";
import { anyOf } from "../commissions/recalc/load.js";
import { dealExplanation } from "../commissions/schema.js";
import type { Tx } from "../context.js";
import type { Kdb } from "../db/connect.js";
import type { DealSplitsTable, DealsTable } from "../db/schema.js";
import { toIso } from "../http/date-fields.js";
import type { Deal, DealStatus } from "./schema.js";

type Row = Selectable<DealsTable>;
type SplitRow = Selectable<DealSplitsTable>;
type Db = Kdb | Tx;

export interface SplitRecord {
  user_id: string;
  percent: string;
  no_plan_reason?: string | null;
}

/** A deal with exact decimal strings; what services compare and write. */
export interface DealRecord {
  id: string;
  external_id: string | null;
  opportunity_name: string;
  arr_amount: string;
  currency: string;
  deal_type: Deal["deal_type"];
  close_date: string;
  owner_id: string;
  splits: SplitRecord[];
  splits_explicit: boolean;
  status: DealStatus;
  total_commission: string;
  rejection_reason: string | null;
  approved_at: Date | null;
  paid_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

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

function toRecord(row: Row, splits: SplitRow[]): DealRecord {
  return {
    ...row,
    splits: splits.map((s) => ({ user_id: s.user_id, percent: s.percent, no_plan_reason: s.no_plan_reason })),
    approved_at: date(row.approved_at),
    paid_at: date(row.paid_at),
    created_at: new Date(row.created_at),
    updated_at: new Date(row.updated_at),
  };
}

async function withSplits(db: Db, rows: Row[]): Promise<DealRecord[]> {
  if (rows.length === 0) return [];
  const splits = await db
    .selectFrom("deal_splits")
    .selectAll()
    .where(
      anyOf(
        "deal_id",
        rows.map((r) => r.id),
      ),
    )
    .orderBy("deal_id")
    .orderBy("position")
    .execute();
  const byDeal = new Map<string, SplitRow[]>();
  for (const s of splits) byDeal.set(s.deal_id, [...(byDeal.get(s.deal_id) ?? []), s]);
  return rows.map((r) => toRecord(r, byDeal.get(r.id) ?? []));
}

function columns(r: DealRecord) {
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

const DEAL_COLUMNS = {
  id: "text",
  external_id: "text",
  opportunity_name: "text",
  arr_amount: "numeric",
  currency: "text",
  deal_type: "text",
  close_date: "date",
  owner_id: "text",
  splits_explicit: "boolean",
  status: "text",
  total_commission: "numeric",
  rejection_reason: "text",
  approved_at: "timestamptz",
  paid_at: "timestamptz",
  created_at: "timestamptz",
  updated_at: "timestamptz",
};

const SPLIT_COLUMNS = {
  deal_id: "text",
  user_id: "text",
  position: "smallint",
  percent: "numeric",
  close_date: "date",
  no_plan_reason: "text",
};

/** Inserts deals and their splits, two statements for any number of deals. */
export async function insertDeals(tx: Tx, records: DealRecord[]): Promise<void> {
  if (records.length === 0) return;
  await insertRecords(tx, "deals", DEAL_COLUMNS, records.map(columns));
  await insertRecords(tx, "deal_splits", SPLIT_COLUMNS, splitRows(records));
}

/** Rewrites deals and their splits, a few statements for any number (no-plan notes are redone by the recalculation). */
export async function updateDeals(tx: Tx, records: DealRecord[]): Promise<void> {
  for (let i = 0; i < records.length; i += 500) {
    const part = records.slice(i, i + 500);
    const rows = part.map(({ splits: _splits, created_at: _created, ...row }) => row);
    await sql`
      UPDATE deals AS d
      SET external_id = v.external_id, opportunity_name = v.opportunity_name, arr_amount = v.arr_amount,
          currency = v.currency, deal_type = v.deal_type, close_date = v.close_date, owner_id = v.owner_id,
          splits_explicit = v.splits_explicit, status = v.status, rejection_reason = v.rejection_reason,
          updated_at = v.updated_at
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(id text, external_id text, opportunity_name text,
        arr_amount numeric, currency text, deal_type text, close_date date, owner_id text, splits_explicit boolean,
        status text, rejection_reason text, updated_at timestamptz)
      WHERE d.id = v.id`.execute(tx);
    await tx
      .deleteFrom("deal_splits")
      .where(
        anyOf(
          "deal_id",
          part.map((r) => r.id),
        ),
      )
      .execute();
    await insertRecords(tx, "deal_splits", SPLIT_COLUMNS, splitRows(part));
  }
}

export async function deleteDeal(tx: Tx, id: string): Promise<void> {
  await tx.deleteFrom("deals").where("id", "=", id).execute();
}

export async function findDeal(db: Db, id: string): Promise<DealRecord | undefined> {
  const row = await db.selectFrom("deals").selectAll().where("id", "=", id).executeTakeFirst();
  return row && (await withSplits(db, [row]))[0];
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
