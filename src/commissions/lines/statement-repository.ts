import { sql } from "kysely";
import type { Db } from "../../db/schema.js";
import { anyOf } from "../../db/sql.js";
import type { PlanKind, PlanPeriod } from "../../enums.js";
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

/** The terms of one plan version a statement shows: what the rep home draws its gauge and next tier from. */
export interface PlanVersionTerms {
  name: string;
  currency: string;
  period: PlanPeriod;
  base_rate: string | null;
  tiers: { from_attainment: string; rate: string }[];
  cap_per_period: string | null;
}

/** The named versions of plans, keyed `plan_id@version`. */
export async function planVersionTerms(
  db: Db,
  versions: { plan_id: string; version: number }[],
): Promise<Map<string, PlanVersionTerms>> {
  const out = new Map<string, PlanVersionTerms>();
  if (versions.length === 0) return out;
  const rows = await db
    .selectFrom("comp_plan_versions as v")
    .innerJoin("comp_plans as p", "p.id", "v.plan_id")
    .select(["v.plan_id", "v.version", "p.name", "v.currency", "v.period", "v.base_rate", "v.tiers"])
    .select("v.cap_per_period")
    .where("v.plan_id", "in", [...new Set(versions.map((v) => v.plan_id))])
    .execute();
  const wanted = new Set(versions.map((v) => `${v.plan_id}@${v.version}`));
  for (const r of rows) {
    const key = `${r.plan_id}@${r.version}`;
    if (!wanted.has(key)) continue;
    const tiers = typeof r.tiers === "string" ? JSON.parse(r.tiers) : r.tiers;
    out.set(key, {
      name: r.name,
      currency: r.currency,
      period: r.period,
      base_rate: r.base_rate,
      tiers: tiers ?? [],
      cap_per_period: r.cap_per_period,
    });
  }
  return out;
}

/**
 * The period kind of the active plan each user is assigned on `date` (a user has at most one assignment
 * in force on a date); a user without one is absent.
 */
export async function planPeriodKindsOn(
  db: Db,
  userIds: readonly string[],
  date: string,
): Promise<Map<string, PlanPeriod>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("plan_assignments as a")
    .innerJoin("comp_plans as p", "p.id", "a.plan_id")
    .select(["a.user_id", "p.period"])
    .where(anyOf("a.user_id", [...userIds]))
    .where("p.status", "=", "active")
    .where("a.effective_from", "<=", date)
    .where((eb) => eb.or([eb("a.effective_to", "is", null), eb("a.effective_to", ">=", date)]))
    // A manager's standard plan decides their period over an override plan ('standard' > 'override').
    .orderBy("p.kind", "desc")
    .orderBy("a.effective_from", "desc")
    .execute();
  const out = new Map<string, PlanPeriod>();
  for (const r of rows) if (!out.has(r.user_id)) out.set(r.user_id, r.period);
  return out;
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

/** An assignment of a person to an active plan, with the plan's kind and currency (a statement's default currency). */
export interface PlanCurrencySpan {
  effective_from: string;
  effective_to: string | null;
  kind: PlanKind;
  currency: string;
}

/** Each user's assignments to active plans, with the plans' currencies, by user id. */
export async function planCurrencySpans(db: Db, userIds: readonly string[]): Promise<Map<string, PlanCurrencySpan[]>> {
  const out = new Map<string, PlanCurrencySpan[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom("plan_assignments as a")
    .innerJoin("comp_plans as p", "p.id", "a.plan_id")
    .select(["a.user_id", "a.effective_from", "a.effective_to", "p.kind", "p.currency"])
    .where(anyOf("a.user_id", [...userIds]))
    .where("p.status", "=", "active")
    .execute();
  for (const { user_id, ...span } of rows) out.get(user_id)!.push(span);
  return out;
}
