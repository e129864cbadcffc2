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
