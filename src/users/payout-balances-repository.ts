import { sql } from "kysely";
import type { Db } from "../db/schema.js";

/**
 * A person's deficit per currency they were paid in by a finalized payout run: Σ (net_pay − lines_total)
 * over those runs' payee rows, which is the latest deficit_carried_forward (API.md §13's invariant).
 */
export async function deficitsOf(db: Db, userId: string): Promise<{ currency: string; deficit: string }[]> {
  return db
    .selectFrom("payout_run_payees as p")
    .innerJoin("payout_runs as r", "r.id", "p.run_id")
    .select(["p.currency", sql<string>`sum(p.net_pay - p.lines_total)::text`.as("deficit")])
    .where("p.user_id", "=", userId)
    .where("r.status", "=", "finalized")
    .groupBy("p.currency")
    .orderBy("p.currency")
    .execute();
}

/**
 * Each of the person's recoverable draws with a balance (API.md §18): Σ its entries (advances, recoveries
 * and forgiveness) of draft and finalized runs, by currency, oldest draw first.
 */
export async function drawBalancesOf(
  db: Db,
  userId: string,
): Promise<{ currency: string; draw_id: string; balance: string }[]> {
  return db
    .selectFrom("draws as d")
    .innerJoin("draw_entries as e", "e.draw_id", "d.id")
    .select(["d.currency", "d.id as draw_id", sql<string>`sum(e.amount)::text`.as("balance")])
    .where("d.user_id", "=", userId)
    .where("d.kind", "=", "recoverable")
    .groupBy(["d.currency", "d.id", "d.starts_on"])
    .having(sql<boolean>`sum(e.amount) <> 0`)
    .orderBy("d.currency")
    .orderBy("d.starts_on")
    .orderBy("d.id")
    .execute();
}
