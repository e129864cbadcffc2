import { sql } from "kysely";
import type { Tx } from "../../context.js";
import type { Db } from "../../db/schema.js";
import { anyOf } from "../../db/sql.js";
import type { Commission } from "../schema.js";
import { toCommission } from "./repository.js";

// The SQL behind the lines of one deal as the deal workflow reads and moves them (approve locks,
// reject voids, mark-paid pays); deals/ reaches it through deal-lines.ts and the feature's index.

/** These lines, in no particular order (ids not found are left out). */
export async function findLines(db: Db, ids: string[]): Promise<Commission[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("commission_lines").selectAll().where(anyOf("id", ids)).execute();
  return rows.map(toCommission);
}

/** A deal's lines: plan lines, then SPIFF lines, then adjustments; each in split order. */
export async function linesOfDeal(db: Db, dealId: string): Promise<Commission[]> {
  const rows = await db
    .selectFrom("commission_lines as l")
    .leftJoin("deal_splits as s", (j) => j.onRef("s.deal_id", "=", "l.deal_id").onRef("s.user_id", "=", "l.user_id"))
    .selectAll("l")
    .where("l.deal_id", "=", dealId)
    .orderBy(sql`CASE l.kind WHEN 'plan' THEN 0 WHEN 'spiff' THEN 1 ELSE 2 END`)
    .orderBy(sql`s.position NULLS LAST`)
    .orderBy("l.spiff_id")
    .orderBy("l.id")
    .execute();
  return rows.map(toCommission);
}

/**
 * Locks a deal's pending lines as the approval workflow does: they become `approved` and no
 * recalculation touches them again; their credit still counts and their amounts use the cap first.
 */
export async function lockDealLines(tx: Tx, dealId: string): Promise<number> {
  const result = await tx
    .updateTable("commission_lines")
    .set({ locked: true, status: "approved" })
    .where("deal_id", "=", dealId)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Voids every line of a rejected deal; returns the (user, amount) of each line it voided. */
export async function voidDealLines(tx: Tx, dealId: string): Promise<{ user_id: string; amount: string }[]> {
  const rows = await tx
    .updateTable("commission_lines")
    .set({ status: "void" })
    .where("deal_id", "=", dealId)
    .where("status", "<>", "void")
    .returning(["user_id", "amount"])
    .execute();
  return rows;
}

/** Each (deal, user)'s sum of non-void line amounts, as exact decimal text. */
export async function lineSums(
  db: Db,
  dealIds: string[],
): Promise<{ deal_id: string; user_id: string; amount: string }[]> {
  if (dealIds.length === 0) return [];
  return db
    .selectFrom("commission_lines")
    .select(["deal_id", "user_id", sql<string>`sum(amount)::text`.as("amount")])
    .where(anyOf("deal_id", dealIds))
    .where("status", "<>", "void")
    .groupBy(["deal_id", "user_id"])
    .execute();
}

/** Marks a paid deal's approved (locked) lines `paid`. */
export async function markDealLinesPaid(tx: Tx, dealId: string): Promise<number> {
  const result = await tx
    .updateTable("commission_lines")
    .set({ status: "paid", locked: true })
    .where("deal_id", "=", dealId)
    .where("status", "=", "approved")
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The ids of every adjustment line a deal has (void ones too: rejecting never deletes them), oldest first. */
export async function adjustmentLineIds(db: Db, dealId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("commission_lines")
    .select("id")
    .where("deal_id", "=", dealId)
    .where("kind", "=", "adjustment")
    .orderBy("id")
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The writers of approved lines take turns (API.md §13): a payout run's create, cancel and finalize hold
 * this lock alone, a mark-paid shares it, each before it locks a deal or a line. Runs so see each
 * other's lines and deficits (they chain), and a run writes thousands of lines in whatever order its
 * UPDATE visits them while no mark-paid holds one (two orders of one deal's lines would deadlock).
 */
export async function lockPayments(tx: Tx, as: "run" | "mark-paid"): Promise<void> {
  await (as === "run"
    ? sql`SELECT pg_advisory_xact_lock(7150424, 1)`
    : sql`SELECT pg_advisory_xact_lock_shared(7150424, 1)`
  ).execute(tx);
}

/**
 * Locks a deal's approved lines (in id order) and returns the run a
 * line is held by, if any: an approved line with a run is in a draft run (finalizing pays it).
 */
export async function lockRunOfDealLines(tx: Tx, dealId: string): Promise<string | null> {
  const rows = await tx
    .selectFrom("commission_lines")
    .select(["id", "payout_run_id"])
    .where("deal_id", "=", dealId)
    .where("status", "=", "approved")
    .orderBy("id")
    .forUpdate()
    .execute();
  return rows.find((r) => r.payout_run_id !== null)?.payout_run_id ?? null;
}

/** Of these deals, those whose non-void lines are all paid (at least one). */
export async function fullyPaidDeals(db: Db, dealIds: string[]): Promise<Set<string>> {
  if (dealIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("commission_lines")
    .select("deal_id")
    .where(anyOf("deal_id", dealIds))
    .where("status", "<>", "void")
    .groupBy("deal_id")
    .having(sql<boolean>`bool_and(status = 'paid')`)
    .execute();
  return new Set(rows.map((r) => r.deal_id));
}
