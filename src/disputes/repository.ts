import type { Selectable } from "kysely";
import { ofVisibleDeals, type Visible } from "../access/index.js";
import type { Tx } from "../context.js";
import type { Db, DisputesTable } from "../db/schema.js";
import { toIso } from "../http/date-fields.js";
import type { Dispute, ListDisputesQuery } from "./schema.js";

type Row = Selectable<DisputesTable>;

const money = (v: string | null) => (v === null ? null : Number(v));

export function toDispute(r: Row): Dispute {
  return {
    id: r.id,
    deal_id: r.deal_id,
    opened_by_key_id: r.opened_by_key_id,
    reason: r.reason,
    description: r.description,
    amount_scope: r.amount_scope,
    scope_user_id: r.scope_user_id,
    expected_amount: money(r.expected_amount),
    status: r.status,
    outcome: r.outcome,
    resolution_note: r.resolution_note,
    resolved_amount: money(r.resolved_amount),
    created_at: toIso(r.created_at)!,
    resolved_at: toIso(r.resolved_at),
  };
}

export type DisputeRow = Row;

export async function insertDispute(tx: Tx, row: Row): Promise<void> {
  await tx.insertInto("disputes").values(row).execute();
}

export async function findDispute(db: Db, id: string): Promise<Row | undefined> {
  return db.selectFrom("disputes").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function lockDispute(tx: Tx, id: string): Promise<Row | undefined> {
  return tx.selectFrom("disputes").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export type Resolution = Pick<Row, "outcome" | "resolution_note" | "resolved_amount" | "resolved_at">;

/** Marks the dispute resolved with the admin's resolution; returns the row as stored. */
export async function saveResolution(tx: Tx, id: string, resolution: Resolution): Promise<Row> {
  return tx
    .updateTable("disputes")
    .set({ ...resolution, status: "resolved" })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The dispute when its deal is one the users see (every dispute with `visible` null). */
export async function findVisibleDispute(db: Db, id: string, visible: Visible): Promise<Row | undefined> {
  let query = db.selectFrom("disputes").selectAll().where("id", "=", id);
  if (visible) query = query.where(ofVisibleDeals("deal_id", visible));
  return query.executeTakeFirst();
}

export async function listDisputes(db: Db, q: ListDisputesQuery, visible: Visible, limit: number, offset: number) {
  let query = db.selectFrom("disputes");
  if (visible) query = query.where(ofVisibleDeals("deal_id", visible));
  if (q.status) query = query.where("status", "in", q.status);
  if (q.deal_id) query = query.where("deal_id", "=", q.deal_id);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toDispute), total: Number(count.n) };
}
