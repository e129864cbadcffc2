import { type Selectable, sql } from "kysely";
import type { Tx } from "../context.js";
import type { Db, DealRefundsTable } from "../db/schema.js";
import { toIso } from "../http/date-fields.js";
import type { DealRecord } from "./repository.js";
import type { Refund } from "./schema.js";

// The SQL of a deal's refunds (API.md §14): the rows, and the deal's running refunded_amount.

type Row = Selectable<DealRefundsTable>;

export function toRefund(r: Row): Refund {
  return {
    id: r.id,
    deal_id: r.deal_id,
    amount: Number(r.amount),
    effective_date: r.effective_date,
    reason: r.reason,
    clawback_line_ids: r.clawback_line_ids,
    created_at: toIso(r.created_at)!,
  };
}

/** The deal's refunds as the clawback computation reads them (amounts as exact text). */
export async function refundsOf(db: Db, dealId: string): Promise<{ amount: string; effective_date: string }[]> {
  const { rows } = await sql<{ amount: string; effective_date: string }>`
    SELECT amount::text AS amount, to_char(effective_date, 'YYYY-MM-DD') AS effective_date
    FROM deal_refunds WHERE deal_id = ${dealId} ORDER BY created_at, id`.execute(db);
  return rows;
}

export async function insertRefund(tx: Tx, refund: Omit<Row, "clawback_line_ids">): Promise<void> {
  await tx
    .insertInto("deal_refunds")
    .values({ ...refund, clawback_line_ids: "[]" })
    .execute();
}

/** Names the clawback lines the refund wrote; returns the refund as stored. */
export async function setRefundLines(tx: Tx, id: string, lineIds: string[]): Promise<Refund> {
  const row = await tx
    .updateTable("deal_refunds")
    .set({ clawback_line_ids: JSON.stringify(lineIds) })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRefund(row);
}

/** Adds the refund to the locked deal's refunded_amount; returns the record as stored now. */
export async function addRefunded(tx: Tx, locked: DealRecord, amount: string, now: Date): Promise<DealRecord> {
  const row = await tx
    .updateTable("deals")
    .set({ refunded_amount: sql`refunded_amount + ${amount}::numeric`, updated_at: now })
    .where("id", "=", locked.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...locked, ...row };
}

/** One page of the deal's refunds, newest first (created_at desc, id desc), and their count. */
export async function listRefunds(db: Db, dealId: string, limit: number, offset: number) {
  const query = db.selectFrom("deal_refunds").where("deal_id", "=", dealId);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toRefund), total: Number(count.n) };
}

export async function findRefund(db: Db, id: string): Promise<Refund | undefined> {
  const row = await db.selectFrom("deal_refunds").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toRefund(row);
}
