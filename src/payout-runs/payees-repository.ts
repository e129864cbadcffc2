import { type Insertable, type Selectable, sql } from "kysely";
import type { Tx } from "../context.js";
import type { Db, PayoutRunPayeesTable } from "../db/schema.js";
import { anyOf, insertRecords } from "../db/sql.js";
import { PAYOUT_RUN_PAYEE_COLUMNS } from "../db/tables-pay.js";
import type { PayeeSums } from "./netting.js";
import type { PayoutRunPayee, PayoutRunTotal } from "./schema.js";

// The SQL of a run's payees (API.md §13): written per person and currency, summed into the run's totals,
// and summed over finalized runs into the deficit a person carries.

type PayeeRow = Selectable<PayoutRunPayeesTable>;

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

/** The run's payees replaced by these rows (one parameter for them all: thousands of payees). */
/** A payee's lines summed: who, in which currency, and the sums netting reads (netting.ts). */
export interface PayeeLineSums {
  user_id: string;
  currency: string;
  sums: PayeeSums;
}

/**
 * The run's lines summed per person and currency, in SQL: a run of a million lines sends netting
 * 10,000 rows, not a million.
 */
export async function sumsOfRun(db: Db, runId: string): Promise<PayeeLineSums[]> {
  const total = (filter: string) => sql<string>`coalesce(sum(amount) FILTER (WHERE ${sql.raw(filter)}), 0)::text`;
  const { rows } = await sql<
    {
      user_id: string;
      currency: string;
      line_count: number;
      total: string;
      positive: string;
    } & PayeeSums["gross"]
  >`
    SELECT user_id, currency, count(*)::int AS line_count, sum(amount)::text AS total,
      ${total("amount > 0")} AS positive,
      ${total("kind = 'plan'")} AS plan, ${total("kind = 'spiff'")} AS spiff,
      ${total("kind = 'override'")} AS override, ${total("kind = 'adjustment'")} AS adjustment,
      ${total("kind = 'clawback'")} AS clawback,
      ${total("kind = 'draw' AND amount >= 0")} AS draw_advance, ${total("kind = 'draw' AND amount < 0")} AS draw_recovery
    FROM commission_lines WHERE payout_run_id = ${runId}
    GROUP BY user_id, currency`.execute(db);
  return rows.map((r) => ({
    user_id: r.user_id,
    currency: r.currency,
    sums: {
      gross: {
        plan: r.plan,
        spiff: r.spiff,
        override: r.override,
        adjustment: r.adjustment,
        clawback: r.clawback,
        draw_advance: r.draw_advance,
        draw_recovery: r.draw_recovery,
      },
      line_count: r.line_count,
      total: r.total,
      positive: r.positive,
    },
  }));
}

export async function replacePayees(tx: Tx, runId: string, rows: Insertable<PayoutRunPayeesTable>[]): Promise<void> {
  await tx.deleteFrom("payout_run_payees").where("run_id", "=", runId).execute();
  await insertRecords(tx, "payout_run_payees", PAYOUT_RUN_PAYEE_COLUMNS, rows);
}

/** Each run's totals per currency, by currency code. */
export async function totalsOf(db: Db, runIds: string[]): Promise<Map<string, PayoutRunTotal[]>> {
  const byRun = new Map<string, PayoutRunTotal[]>(runIds.map((id) => [id, []]));
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
