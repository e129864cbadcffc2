import { type Insertable, type Selectable, sql } from "kysely";
import type { Tx } from "../context.js";
import type { Db, PayoutRunPayeesTable, PayoutRunsTable } from "../db/schema.js";
import { anyOf } from "../db/sql.js";
import { toIso } from "../http/date-fields.js";
import type { RunKind } from "./netting.js";
import type { ListPayoutRunsQuery, PayoutRunPayee, PayoutRunSummary, PayoutRunTotal } from "./schema.js";

// The SQL of payout runs (API.md §13): the run rows and their payees, the lines a run selects, holds and
// pays, the deficits carried between runs.

export type RunRow = Selectable<PayoutRunsTable>;
type PayeeRow = Selectable<PayoutRunPayeesTable>;
type Total = PayoutRunTotal;

/** Creations and finalizes of runs take turns (a transaction-scoped advisory lock): deficits chain. */
export async function lockRunBook(tx: Tx): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(7150424, 1)`.execute(tx);
}

export async function knownUsers(db: Db, ids: string[]): Promise<Set<string>> {
  const rows = await db.selectFrom("users").select("id").where(anyOf("id", ids)).execute();
  return new Set(rows.map((r) => r.id));
}

export interface RunLine {
  id: string;
  deal_id: string;
  user_id: string;
  currency: string;
  kind: RunKind;
  amount: string;
}

/**
 * The lines a new run takes, locked in id order (mark-paid locks a deal's lines in the same order): approved,
 * in no run, of a kind runs pay, of an approved, paid or cancelled deal, eligible on or before `through`
 * (plan, spiff, override: the deal's approval date; adjustment, clawback: the line's creation date; UTC).
 */
export async function selectLines(
  tx: Tx,
  filter: { through: string; currency: string | null; userIds: string[] | null },
): Promise<RunLine[]> {
  let query = tx
    .selectFrom("commission_lines as l")
    .innerJoin("deals as d", "d.id", "l.deal_id")
    .select(["l.id", "l.deal_id", "l.user_id", "l.currency", sql<RunKind>`l.kind`.as("kind")])
    .select(sql<string>`l.amount::text`.as("amount"))
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
  return query.orderBy("l.id").forUpdate("l").execute();
}

export async function assignLines(tx: Tx, runId: string, lineIds: string[]): Promise<void> {
  if (lineIds.length === 0) return;
  await tx.updateTable("commission_lines").set({ payout_run_id: runId }).where(anyOf("id", lineIds)).execute();
}

/** The lines a run holds, as its netting reads them. */
export async function linesOfRun(db: Db, runId: string): Promise<RunLine[]> {
  return db
    .selectFrom("commission_lines")
    .select([
      "id",
      "deal_id",
      "user_id",
      "currency",
      sql<RunKind>`kind`.as("kind"),
      sql<string>`amount::text`.as("amount"),
    ])
    .where("payout_run_id", "=", runId)
    .orderBy("id")
    .execute();
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

/**
 * Each (user, currency)'s deficit: Σ (net_pay − lines_total) over the runs counted, which is the latest
 * deficit_carried_forward when each run's brought-forward was the one before's carried (per payee, net_pay =
 * lines_total − brought + carried). Counted: finalized runs, and with `drafts` every other draft too.
 */
export async function deficits(
  db: Db,
  userIds: string[],
  drafts: { except: string } | null,
): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  let query = db
    .selectFrom("payout_run_payees as p")
    .innerJoin("payout_runs as r", "r.id", "p.run_id")
    .select(["p.user_id", "p.currency", sql<string>`sum(p.net_pay - p.lines_total)::text`.as("deficit")])
    .where(anyOf("p.user_id", userIds));
  query = drafts
    ? query.where((eb) =>
        eb.or([
          eb("r.status", "=", "finalized"),
          eb.and([eb("r.status", "=", "draft"), eb("r.id", "<>", drafts.except)]),
        ]),
      )
    : query.where("r.status", "=", "finalized");
  const rows = await query.groupBy(["p.user_id", "p.currency"]).execute();
  return new Map(rows.map((r) => [`${r.user_id} ${r.currency}`, r.deficit]));
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

export async function replacePayees(tx: Tx, runId: string, rows: Insertable<PayoutRunPayeesTable>[]): Promise<void> {
  await tx.deleteFrom("payout_run_payees").where("run_id", "=", runId).execute();
  for (let i = 0; i < rows.length; i += 1000) {
    await tx
      .insertInto("payout_run_payees")
      .values(rows.slice(i, i + 1000))
      .execute();
  }
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

/** Each run's totals per currency, by currency code. */
export async function totalsOf(db: Db, runIds: string[]): Promise<Map<string, Total[]>> {
  const byRun = new Map<string, Total[]>(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return byRun;
  const rows = await db
    .selectFrom("payout_run_payees")
    .select(["run_id", "currency"])
    .select((eb) => [
      eb.fn.countAll<string>().as("payees"),
      sql<string>`sum(line_count)`.as("lines"),
      sql<string>`sum(lines_total)::text`.as("lines_total"),
      sql<string>`sum(recovered)::text`.as("recovered"),
      sql<string>`sum(net_pay)::text`.as("net_pay"),
      sql<string>`sum(deficit_carried_forward)::text`.as("deficit_carried_forward"),
    ])
    .where(anyOf("run_id", runIds))
    .groupBy(["run_id", "currency"])
    .orderBy("currency")
    .execute();
  for (const r of rows) {
    byRun.get(r.run_id)!.push({
      currency: r.currency,
      payees: Number(r.payees),
      lines: Number(r.lines),
      lines_total: Number(r.lines_total),
      recovered: Number(r.recovered),
      net_pay: Number(r.net_pay),
      deficit_carried_forward: Number(r.deficit_carried_forward),
    });
  }
  return byRun;
}

export function toSummary(row: RunRow, totals: Total[]): PayoutRunSummary {
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

function toPayee(r: PayeeRow): PayoutRunPayee {
  const n = Number;
  return {
    user_id: r.user_id,
    name: r.name,
    email: r.email,
    external_id: r.external_id,
    payroll_id: r.payroll_id,
    currency: r.currency,
    gross: {
      plan: n(r.gross_plan),
      spiff: n(r.gross_spiff),
      override: n(r.gross_override),
      adjustment: n(r.gross_adjustment),
      clawback: n(r.gross_clawback),
      draw_advance: n(r.gross_draw_advance),
      draw_recovery: n(r.gross_draw_recovery),
    },
    line_count: r.line_count,
    lines_total: n(r.lines_total),
    positive_total: n(r.positive_total),
    deficit_brought_forward: n(r.deficit_brought_forward),
    recovery_cap: n(r.recovery_cap),
    recovered: n(r.recovered),
    net_pay: n(r.net_pay),
    deficit_carried_forward: n(r.deficit_carried_forward),
  };
}

/** A run's payees by name, user id, currency (the generic export's order). */
export async function payeesOf(db: Db, runId: string): Promise<PayoutRunPayee[]> {
  const rows = await db
    .selectFrom("payout_run_payees")
    .selectAll()
    .where("run_id", "=", runId)
    .orderBy("name")
    .orderBy("user_id")
    .orderBy("currency")
    .execute();
  return rows.map(toPayee);
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
