import { type Insertable, type Selectable, sql } from "kysely";
import type { Tx } from "../context.js";
import type { DrawEntriesTable, DrawPeriodsTable, DrawsTable } from "../db/schema.js";
import { anyOf } from "../db/sql.js";

// The SQL of draw settlement inside payout runs (API.md §18): the draws a run reaches, their settled
// periods, what the person earned, balances, and the draw lines, entries and periods a run writes or drops.

export type SettledDraw = Selectable<DrawsTable>;

/** The draws of the people and currency a run includes that started on or before `through`, oldest first. */
export async function drawsOfRun(
  tx: Tx,
  filter: { through: string; currency: string | null; userIds: string[] | null },
): Promise<SettledDraw[]> {
  let query = tx.selectFrom("draws").selectAll().where("starts_on", "<=", filter.through);
  if (filter.currency) query = query.where("currency", "=", filter.currency);
  if (filter.userIds) query = query.where(anyOf("user_id", filter.userIds));
  return query.orderBy("starts_on").orderBy("id").execute();
}

/** Each draw's settled period labels (by draft and finalized runs). */
export async function settledPeriods(tx: Tx, drawIds: string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>(drawIds.map((id) => [id, new Set()]));
  if (drawIds.length === 0) return out;
  const rows = await tx
    .selectFrom("draw_periods")
    .select(["draw_id", "period"])
    .where(anyOf("draw_id", drawIds))
    .execute();
  for (const r of rows) out.get(r.draw_id)!.add(r.period);
  return out;
}

/**
 * E: Σ the person's plan, spiff and override lines in the currency with a period among `labels`, in this
 * run or in runs finalized before it.
 */
export async function earned(
  tx: Tx,
  runId: string,
  who: { user_id: string; currency: string },
  labels: string[],
): Promise<string> {
  const row = await tx
    .selectFrom("commission_lines as l")
    .leftJoin("payout_runs as r", "r.id", "l.payout_run_id")
    .select(sql<string>`coalesce(sum(l.amount), 0)::text`.as("e"))
    .where("l.user_id", "=", who.user_id)
    .where("l.currency", "=", who.currency)
    .where(sql<boolean>`l.kind IN ('plan', 'spiff', 'override')`)
    .where(anyOf("l.period", labels))
    .where((eb) => eb.or([eb("l.payout_run_id", "=", runId), eb("r.status", "=", "finalized")]))
    .executeTakeFirstOrThrow();
  return row.e;
}

/**
 * Each draw's balance before this run: Σ its entries without a run (forgiveness) and of finalized runs,
 * and with `drafts` of every other draft too.
 */
export async function balances(
  tx: Tx,
  drawIds: string[],
  runId: string,
  drafts: boolean,
): Promise<Map<string, string>> {
  if (drawIds.length === 0) return new Map();
  const rows = await tx
    .selectFrom("draw_entries as e")
    .leftJoin("payout_runs as r", "r.id", "e.payout_run_id")
    .select(["e.draw_id", sql<string>`sum(e.amount)::text`.as("balance")])
    .where(anyOf("e.draw_id", drawIds))
    .where((eb) =>
      eb.or([
        eb("e.payout_run_id", "is", null),
        eb("r.status", "=", "finalized"),
        ...(drafts ? [eb.and([eb("r.status", "=", "draft"), eb("r.id", "<>", runId)])] : []),
      ]),
    )
    .groupBy("e.draw_id")
    .execute();
  return new Map(rows.map((r) => [r.draw_id, r.balance]));
}

export interface DrawLine {
  id: string;
  user_id: string;
  currency: string;
  draw_id: string;
  period: string;
  amount: string;
  explanation: Record<string, unknown>;
  payout_run_id: string;
  at: Date;
}

/** A draw line: approved and locked, no deal, held by the run. */
export async function insertDrawLine(tx: Tx, line: DrawLine): Promise<void> {
  await sql`
    INSERT INTO commission_lines (id, deal_id, user_id, kind, period, amount, status, locked, explanation, currency,
      payout_run_id, draw_id, calculated_at, created_at)
    VALUES (${line.id}, NULL, ${line.user_id}, 'draw', ${line.period}, ${line.amount}, 'approved', true,
      ${JSON.stringify(line.explanation)}::jsonb, ${line.currency}, ${line.payout_run_id}, ${line.draw_id}, ${line.at},
      ${line.at})`.execute(tx);
}

export async function insertPeriod(tx: Tx, row: Insertable<DrawPeriodsTable>): Promise<void> {
  await tx.insertInto("draw_periods").values(row).execute();
}

export async function insertEntry(tx: Tx, row: Insertable<DrawEntriesTable>): Promise<void> {
  await tx.insertInto("draw_entries").values(row).execute();
}

/** A run's settlement undone: its entries and periods gone; its draw lines deleted (a recomputation) or voided (a cancel). */
export async function unsettle(tx: Tx, runId: string, lines: "delete" | "void"): Promise<void> {
  await tx.deleteFrom("draw_entries").where("payout_run_id", "=", runId).execute();
  await tx.deleteFrom("draw_periods").where("payout_run_id", "=", runId).execute();
  const drawLines = tx.updateTable("commission_lines").where("payout_run_id", "=", runId).where("kind", "=", "draw");
  if (lines === "void") await drawLines.set({ status: "void" }).execute();
  else await tx.deleteFrom("commission_lines").where("payout_run_id", "=", runId).where("kind", "=", "draw").execute();
}
