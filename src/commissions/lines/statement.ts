import { seesUser } from "../../access/index.js";
import { type Ctx, requireScope } from "../../context.js";
import { notFound } from "../../errors.js";
import {
  addRatios,
  amountNumber,
  type Fixed,
  lt,
  moneyNumber,
  parse,
  parseRatio,
  plain,
  plus,
  quotient,
  type Ratio,
  ratioFixed,
  sign,
  ZERO,
} from "../../money/index.js";
import { existingUserIds } from "../../users/index.js";
import type { Statement } from "../schema.js";
import { countByCurrency, statementCurrency } from "./statement-currency.js";
import { tierPosition } from "./statement-plans.js";
import type { FigureLine, PlanVersionTerms } from "./statement-repository.js";
import * as repo from "./statement-repository.js";

type CurrencyTotals = Statement["totals_by_currency"][number];
type PlanSummary = Statement["plans"][number];

/** Σ of lines of one currency by kind (draw: API.md §18's kind, when lines of it exist). */
function totalsOf(lines: FigureLine[], currency: string): CurrencyTotals {
  const sums: Record<string, Fixed> = {
    plan: ZERO,
    spiff: ZERO,
    override: ZERO,
    adjustment: ZERO,
    clawback: ZERO,
    draw: ZERO,
  };
  let total = ZERO;
  for (const line of lines) {
    const amount = parse(line.amount);
    sums[line.kind] = plus(sums[line.kind] ?? ZERO, amount);
    total = plus(total, amount);
  }
  // Sums of amounts already at their minor units: exact, nothing to round.
  const n = (kind: string) => amountNumber(sums[kind]!);
  return {
    currency,
    plan: n("plan"),
    spiff: n("spiff"),
    override: n("override"),
    adjustment: n("adjustment"),
    clawback: n("clawback"),
    draw: n("draw"),
    total: amountNumber(total),
  };
}

/** Per currency the lines are in, sorted by code. */
function totalsByCurrency(lines: FigureLine[]): CurrencyTotals[] {
  const currencies = [...new Set(lines.map((l) => l.currency))].sort();
  return currencies.map((c) =>
    totalsOf(
      lines.filter((l) => l.currency === c),
      c,
    ),
  );
}

function byStatusOf(lines: FigureLine[]): Statement["by_status"] {
  const sums = { pending: ZERO, approved: ZERO, paid: ZERO };
  for (const line of lines) if (line.status !== "void") sums[line.status] = plus(sums[line.status], parse(line.amount));
  return { pending: amountNumber(sums.pending), approved: amountNumber(sums.approved), paid: amountNumber(sums.paid) };
}

type PlanCredit = { quota: string | null; at: string; credit: Fixed; earned: Fixed; version: number };

const NONE: Ratio = { num: 0n, den: 1n };
/** Attainment is shown to the minor unit and its ratio to 4 places: 12 keep every terminating sum exact. */
const CREDIT_PLACES = 12;

/**
 * Per plan: the quota of its latest-calculated line and the credit booked under it in the period
 * (every non-void plan line stands for one counted deal credit, pending or locked).
 */
function creditsByPlan(lines: FigureLine[]): Map<string, PlanCredit> {
  const plans = new Map<string, PlanCredit>();
  // A converted line's credit may not terminate ("25175/23", API.md §15): summed exactly, rounded once.
  const credits = new Map<string, Ratio>();
  for (const line of lines) {
    if (line.kind !== "plan" || !line.plan_id) continue;
    const e = line.explanation as { quota?: string | null; credit?: string };
    const seen = plans.get(line.plan_id) ?? { quota: null, at: "", credit: ZERO, earned: ZERO, version: 0 };
    // The latest calculation's quota, the higher version on a tie: the same whatever order the lines come in.
    const version = line.plan_version ?? 0;
    if (line.calculated_at > seen.at || (line.calculated_at === seen.at && version >= seen.version)) {
      Object.assign(seen, { quota: e.quota ?? null, at: line.calculated_at, version });
    }
    credits.set(line.plan_id, addRatios(credits.get(line.plan_id) ?? NONE, parseRatio(e.credit ?? 0)));
    seen.earned = plus(seen.earned, parse(line.amount));
    plans.set(line.plan_id, seen);
  }
  for (const [planId, plan] of plans) plan.credit = ratioFixed(credits.get(planId)!, CREDIT_PLACES);
  return plans;
}

function planSummary(plan_id: string, p: PlanCredit, terms: Map<string, PlanVersionTerms>): PlanSummary {
  const quota = p.quota === null ? null : parse(p.quota);
  const t = terms.get(`${plan_id}@${p.version}`);
  if (!t) throw new Error(`plan version ${plan_id}@${p.version} of a statement line is missing`);
  const cap = t.cap_per_period === null ? null : parse(t.cap_per_period);
  return {
    plan_id,
    plan_name: t.name,
    plan_version: p.version,
    currency: t.currency,
    period_kind: t.period,
    tiers: t.tiers.map((tier) => ({ from_attainment: Number(tier.from_attainment), rate: Number(tier.rate) })),
    cap_per_period: cap === null ? null : amountNumber(cap),
    earned: amountNumber(p.earned),
    cap_reached: cap !== null && !lt(p.earned, cap),
    ...tierPosition(t, p.quota, p.credit),
    quota: quota === null ? null : amountNumber(quota),
    attainment: moneyNumber(p.credit, t.currency),
    attainment_ratio: quota === null || sign(quota) === 0 ? null : Number(plain(quotient(p.credit, quota, 4))),
  };
}

/** The numbers of a statement: per plan, totals by kind and by status, and how many deals its plan lines count. */
export type StatementNumbers = Pick<Statement, "currency" | "plans" | "totals" | "totals_by_currency" | "by_status"> & {
  deals: number;
};

/** A statement's lines, its user and period, and the currency asked for (none: the default). */
export interface StatementLines {
  userId: string;
  period: string;
  lines: FigureLine[];
  currency?: string | undefined;
}

/**
 * The numbers of several statements with one read of plan terms and one of plan assignments for all of
 * them, so a page of people's statements costs the same statements as one. totals and by_status cover
 * the statement's currency only (API.md §15).
 */
export async function statementNumbers(db: Ctx["db"], statements: StatementLines[]): Promise<StatementNumbers[]> {
  const credits = statements.map((s) => creditsByPlan(s.lines));
  const versions = credits.flatMap((plans) => [...plans].map(([plan_id, p]) => ({ plan_id, version: p.version })));
  const needSpans = statements.filter((s) => s.currency === undefined).map((s) => s.userId);
  const [terms, spans] = await Promise.all([
    repo.planVersionTerms(db, versions),
    repo.planCurrencySpans(db, [...new Set(needSpans)]),
  ]);
  return statements.map(({ userId, period, lines, currency: asked }, i) => {
    const currency = asked ?? statementCurrency(spans.get(userId) ?? [], period, countByCurrency(lines));
    const { currency: _c, ...totals } = totalsOf(
      lines.filter((l) => l.currency === currency),
      currency,
    );
    return {
      currency,
      plans: [...credits[i]!].map(([plan_id, p]) => planSummary(plan_id, p, terms)),
      totals,
      totals_by_currency: totalsByCurrency(lines),
      by_status: byStatusOf(lines.filter((l) => l.currency === currency)),
      deals: new Set(lines.filter((l) => l.kind === "plan").map((l) => l.deal_id)).size,
    };
  });
}

/** 404 unless the caller may read this user's lines (themself, a manager's subtree, finance, admins). */
export async function requireStatementReader(ctx: Ctx, userId: string): Promise<void> {
  requireScope(ctx, "read");
  const seen = (await seesUser(ctx, userId)) && (await existingUserIds(ctx.db, [userId])).has(userId);
  if (!seen) throw notFound("User", userId);
}

/** A user's statement for one period: their non-void lines whose period equals it, and the totals in `currency`. */
export async function getStatement(ctx: Ctx, userId: string, period: string, currency?: string): Promise<Statement> {
  await requireStatementReader(ctx, userId);
  const [lines, drawLines] = await Promise.all([
    repo.statementLines(ctx.db, userId, period),
    repo.statementDrawLines(ctx.db, userId, period),
  ]);
  const [numbers] = await statementNumbers(ctx.db, [{ userId, period, lines: [...lines, ...drawLines], currency }]);
  return {
    user_id: userId,
    period,
    currency: numbers!.currency,
    plans: numbers!.plans,
    lines,
    draw_lines: drawLines,
    totals: numbers!.totals,
    totals_by_currency: numbers!.totals_by_currency,
    by_status: numbers!.by_status,
  };
}
