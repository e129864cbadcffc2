import { type Insertable, type Selectable, sql } from "kysely";
import type { Tx } from "../context.js";
import type { Db, PayoutRunsTable } from "../db/schema.js";
import { anyOf } from "../db/sql.js";
import { toIso } from "../http/date-fields.js";
import type { ListPayoutRunsQuery, PayoutRunSummary, PayoutRunTotal } from "./schema.js";

// The SQL of payout runs (API.md §13): the run rows, the lines a run selects, holds and pays, the people it
// copies (payees-repository.ts: their rows, totals and deficits).

export type RunRow = Selectable<PayoutRunsTable>;

export async function knownUsers(db: Db, ids: string[]): Promise<Set<string>> {
  const rows = await db.selectFrom("users").select("id").where(anyOf("id", ids)).execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Puts in the run the lines it takes: approved, in no run, of a kind runs pay, of an approved, paid or
 * cancelled deal, eligible on or before `through` (plan, spiff, override: the deal's
 * approval date; adjustment, clawback: the line's creation date; UTC). One UPDATE, in no particular order:
 * the caller holds lockPayments, so no mark-paid holds a line meanwhile.
 */
export async function takeLines(
  tx: Tx,
  runId: string,
  filter: { through: string; currency: string | null; userIds: string[] | null },
): Promise<void> {
  let query = tx
    .updateTable("commission_lines as l")
    .from("deals as d")
    .set({ payout_run_id: runId })
    .whereRef("d.id", "=", "l.deal_id")
    .where("l.status", "=", "approved")
    .where("l.payout_run_id", "is", null)
    .where(sql<boolean>`l.kind IN ('plan', 'spiff', 'override', 'adjustment', 'clawback')`)
    .where(sql<boolean>`d.status IN ('approved', 'paid', 'cancelled')`)
    .where(
      sql<boolean>`(CASE WHEN l.kind IN ('adjustment', 'clawback') THEN (l.created_at AT TIME ZONE 'UTC')::date
        ELSE (d.approved_at AT TIME ZONE 'UTC')::date END) <= ${filter.through}::date`,
    );
  if (filter.currency) query = query.where("l.currency", "=", filter.currency);
  if (filter.userIds) query = query.where(anyOf("l.user_id", filter.userIds));
  await query.execute();
}

export async function payLines(tx: Tx, runId: string): Promise<void> {
  await tx
    .updateTable("commission_lines")
    .set({ status: "paid", locked: true })
    .where("payout_run_id", "=", runId)
    .where("status", "=", "approved")
    .execute();
}

export async function releaseLines(tx: Tx, runId: string): Promise<void> {
  await tx.updateTable("commission_lines").set({ payout_run_id: null }).where("payout_run_id", "=", runId).execute();
}

export interface Person {
  id: string;
  name: string;
  email: string;
  external_id: string | null;
  payroll_id: string | null;
}

export async function people(db: Db, ids: string[]): Promise<Map<string, Person>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("users")
    .select(["id", "name", "email", "external_id", "payroll_id"])
    .where(anyOf("id", ids))
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** The latest `through` of the finalized runs but this one (null: none). */
export async function latestThrough(db: Db, except: string): Promise<string | null> {
  const row = await db
    .selectFrom("payout_runs")
    .select(sql<string | null>`max(through)::text`.as("through"))
    .where("status", "=", "finalized")
    .where("id", "<>", except)
    .executeTakeFirstOrThrow();
  return row.through;
}

export async function insertRun(tx: Tx, row: Insertable<PayoutRunsTable>): Promise<RunRow> {
  return tx.insertInto("payout_runs").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateRun(tx: Tx, id: string, changes: Partial<Insertable<PayoutRunsTable>>): Promise<RunRow> {
  return tx.updateTable("payout_runs").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

export async function findRun(db: Db, id: string): Promise<RunRow | undefined> {
  return db.selectFrom("payout_runs").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function lockRun(tx: Tx, id: string): Promise<RunRow | undefined> {
  return tx.selectFrom("payout_runs").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

export function toSummary(row: RunRow, totals: PayoutRunTotal[]): PayoutRunSummary {
  return {
    id: row.id,
    status: row.status,
    through: row.through,
    pay_date: row.pay_date,
    currency: row.currency,
    user_ids: row.user_ids,
    max_recovery_percent: Number(row.max_recovery_percent),
    period_start: row.period_start,
    period_end: row.period_end,
    totals,
    created_at: toIso(row.created_at)!,
    created_by: row.created_by,
    finalized_at: toIso(row.finalized_at),
    finalized_by: row.finalized_by,
    cancelled_at: toIso(row.cancelled_at),
  };
}

export async function listRuns(db: Db, q: ListPayoutRunsQuery, limit: number, offset: number) {
  let query = db.selectFrom("payout_runs as r");
  if (q.status) query = query.where(anyOf("r.status", q.status));
  if (q.currency) {
    const currency = q.currency;
    query = query.where((eb) =>
      eb.or([
        eb("r.currency", "=", currency),
        eb.and([
          eb("r.currency", "is", null),
          eb.exists(
            eb
              .selectFrom("payout_run_payees as p")
              .select("p.run_id")
              .whereRef("p.run_id", "=", "r.id")
              .where("p.currency", "=", currency),
          ),
        ]),
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    query.selectAll("r").orderBy("r.created_at", "desc").orderBy("r.seq", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
