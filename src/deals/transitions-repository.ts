import type { Tx } from "../context.js";
import type { DealRecord } from "./repository.js";

/*
 * The SQL of a workflow transition beyond the lock (`lockDeal` returns the record): the credited users
 * to lock before the deal, and the status update that returns what it changed.
 */

/** The users a deal credits, read from its splits alone: a transition locks them before the deal row. */
export async function creditedUserIds(tx: Tx, dealId: string): Promise<string[]> {
  const rows = await tx.selectFrom("deal_splits").select("user_id").where("deal_id", "=", dealId).execute();
  return rows.map((r) => r.user_id);
}

export type StatusChange = Pick<DealRecord, "status" | "updated_at"> &
  Partial<
    Pick<
      DealRecord,
      "approved_at" | "paid_at" | "rejection_reason" | "cancelled_at" | "cancel_reason" | "cancel_effective_date"
    >
  >;

/**
 * Sets the status of a deal the caller holds locked, and the fields the transition stamps; returns the
 * record as stored now (the row's columns from RETURNING, the splits from the lock: no transition edits them).
 */
export async function setStatus(tx: Tx, locked: DealRecord, change: StatusChange): Promise<DealRecord> {
  const row = await tx
    .updateTable("deals")
    .set(change)
    .where("id", "=", locked.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...locked, ...row };
}
