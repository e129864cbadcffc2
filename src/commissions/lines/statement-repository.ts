import { sql } from "kysely";
import type { Db } from "../../db/schema.js";
import { anyOf } from "../../db/sql.js";
import type { StatementLine } from "../schema.js";
import { toCommission } from "./repository.js";

/** A user's non-void lines of one period, in deal order (close_date, created_at, id), then kind. */
export async function statementLines(db: Db, userId: string, period: string): Promise<StatementLine[]> {
  return (await statementLinesOfUsers(db, [userId], period)).get(userId) ?? [];
}

/**
 * A line as a person reconciles it: its deal, the line's user's split of it (absent for an adjustment to
 * someone not credited) and the payout run holding it. Statements and payout runs read lines through it.
 */
function reconciledLines(db: Db) {
  return db
    .selectFrom("commission_lines as l")
    .leftJoin("deals as d", "d.id", "l.deal_id")
    .leftJoin("deal_splits as s", (join) =>
      join.onRef("s.deal_id", "=", "l.deal_id").onRef("s.user_id", "=", "l.user_id"),
    )
    .leftJoin("payout_runs as r", "r.id", "l.payout_run_id")
    .selectAll("l")
    .select(["r.status as run_status", "r.pay_date as run_pay_date"])
    .select([
      "d.opportunity_name",
      "d.close_date",
      "d.arr_amount",
      "d.currency as deal_currency",
      "d.deal_type",
      "d.status as deal_status",
    ])
    .select("s.percent as credit_percent");
}

type ReconciledRow = Awaited<ReturnType<ReturnType<typeof reconciledLines>["execute"]>>[number];

function toStatementLine(row: ReconciledRow): StatementLine {
  const {
    opportunity_name,
    close_date,
    arr_amount,
    deal_currency,
    deal_type,
    deal_status,
    credit_percent,
    run_status,
    run_pay_date,
    ...l
  } = row;
  return {
    ...toCommission(l),
    deal:
      l.deal_id === null ||
      opportunity_name === null ||
      close_date === null ||
      deal_type === null ||
      deal_status === null
        ? null
        : {
            id: l.deal_id,
            opportunity_name,
            close_date,
            arr_amount: Number(arr_amount),
            currency: deal_currency!,
            deal_type,
            status: deal_status,
            credit_percent: credit_percent === null ? null : Number(credit_percent),
          },
    payout_run:
      l.payout_run_id && run_status && run_pay_date
        ? { id: l.payout_run_id, status: run_status, pay_date: run_pay_date }
        : null,
  };
}

/**
 * `statementLines` of several users in one statement, by user id (a user without lines is absent); each
 * line with its deal as a person reconciles it, and the user's split percent of that deal.
 */
export async function statementLinesOfUsers(
  db: Db,
  userIds: readonly string[],
  period: string,
): Promise<Map<string, StatementLine[]>> {
  const out = new Map<string, StatementLine[]>();
  if (userIds.length === 0) return out;
  const rows = await reconciledLines(db)
    .where(anyOf("l.user_id", [...userIds]))
    .where("l.period", "=", period)
    .where("l.status", "<>", "void")
    .where("l.kind", "<>", "draw")
    .orderBy("d.close_date")
    .orderBy("d.created_at")
    .orderBy("d.id")
    .orderBy(sql`CASE l.kind WHEN 'plan' THEN 0 WHEN 'spiff' THEN 1 ELSE 2 END`)
    .orderBy("l.id")
    .execute();
  for (const row of rows) {
    const line = toStatementLine(row);
    const lines = out.get(line.user_id);
    if (lines) lines.push(line);
    else out.set(line.user_id, [line]);
  }
  return out;
}

/** A user's non-void draw lines of one period (API.md §18), by creation. */
export async function statementDrawLines(db: Db, userId: string, period: string): Promise<StatementLine[]> {
  const rows = await reconciledLines(db)
    .where("l.user_id", "=", userId)
    .where("l.period", "=", period)
    .where("l.kind", "=", "draw")
    .where("l.status", "<>", "void")
    .orderBy("l.created_at")
    .orderBy("l.id")
    .execute();
  return rows.map(toStatementLine);
}

export interface RunLinesFilter {
  user_id?: string;
  kind?: string[];
}

/** A page of a payout run's lines, by user, currency, date and kind, each as a person reconciles it. */
export async function runLines(db: Db, runId: string, q: RunLinesFilter, limit: number, offset: number) {
  let query = db.selectFrom("commission_lines as l").where("l.payout_run_id", "=", runId);
  if (q.user_id) query = query.where("l.user_id", "=", q.user_id);
  if (q.kind) query = query.where(sql<boolean>`l.kind = ANY(${q.kind}::text[])`);
  let page = reconciledLines(db).where("l.payout_run_id", "=", runId);
  if (q.user_id) page = page.where("l.user_id", "=", q.user_id);
  if (q.kind) page = page.where(sql<boolean>`l.kind = ANY(${q.kind}::text[])`);
  const [rows, count] = await Promise.all([
    page
      .orderBy("l.user_id")
      .orderBy("l.currency")
      .orderBy("l.created_at")
      .orderBy(sql`array_position(ARRAY['plan', 'spiff', 'override', 'adjustment', 'clawback', 'draw'], l.kind)`)
      .orderBy("l.id")
      .limit(limit)
      .offset(offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toStatementLine), total: Number(count.n) };
}

/** Per period and currency a user has non-void lines in: how many, and their sums by status (exact decimal strings). */
export interface PeriodSums {
  period: string;
  currency: string;
  lines: number;
  pending: string;
  approved: string;
  paid: string;
}

export async function periodSumsOfUser(db: Db, userId: string): Promise<PeriodSums[]> {
  const sum = (status: "pending" | "approved" | "paid") =>
    sql<string>`coalesce(sum(l.amount) FILTER (WHERE l.status = ${status}), 0)::text`;
  const rows = await db
    .selectFrom("commission_lines as l")
    .select((eb) => [
      "l.period",
      "l.currency",
      eb.fn.countAll<string>().as("lines"),
      sum("pending").as("pending"),
      sum("approved").as("approved"),
      sum("paid").as("paid"),
    ])
    .where("l.user_id", "=", userId)
    .where("l.status", "<>", "void")
    .groupBy(["l.period", "l.currency"])
    .orderBy("l.currency")
    .execute();
  return rows.map((r) => ({ ...r, lines: Number(r.lines) }));
}
