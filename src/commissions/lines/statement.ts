import { seesUser } from "../../access/index.js";
import { type Ctx, requireScope } from "../../context.js";
import { notFound } from "../../errors.js";
import { amountNumber, lt, moneyNumber, parse, plain, quotient, sign } from "../../money/index.js";
import { existingUserIds } from "../../users/index.js";
import type { Statement } from "../schema.js";
import { statementCurrency } from "./statement-currency.js";
import {
  byStatusOf,
  creditsByPlan,
  figuresOfLines,
  lineCountByCurrency,
  type PlanCredit,
  type StatementFigures,
  totalsByCurrency,
  totalsOf,
} from "./statement-figures.js";
import { tierPosition } from "./statement-plans.js";
import { type PlanSpan, type PlanVersionTerms, planTermsAndSpans } from "./statement-plans-repository.js";
import * as repo from "./statement-repository.js";

type PlanSummary = Statement["plans"][number];

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

/** A statement's figures, its user and period, and the currency asked for (none: the default). */
export interface StatementOf {
  userId: string;
  period: string;
  figures: StatementFigures;
  currency?: string | undefined;
}

/**
 * The numbers of several statements with one read of the plan versions and assignments they need for
 * all of them, so a page of people's statements costs the same statements as one (`spans`: the people's
 * assignments when already read). totals and by_status cover the statement's currency only (API.md §15).
 */
export async function statementNumbers(
  db: Ctx["db"],
  statements: StatementOf[],
  known?: { spans: ReadonlyMap<string, PlanSpan[]> },
): Promise<StatementNumbers[]> {
  const credits = statements.map((s) => creditsByPlan(s.figures.groups));
  const versions = credits.flatMap((plans) => [...plans].map(([plan_id, p]) => ({ plan_id, version: p.version })));
  const needSpans = known ? [] : statements.filter((s) => s.currency === undefined).map((s) => s.userId);
  const read = await planTermsAndSpans(db, versions, [...new Set(needSpans)]);
  const spans = known?.spans ?? read.spans;
  return statements.map(({ userId, period, figures: { groups, deals }, currency: asked }, i) => {
    const currency = asked ?? statementCurrency(spans.get(userId) ?? [], period, lineCountByCurrency(groups));
    const inCurrency = groups.filter((g) => g.currency === currency);
    const { currency: _c, ...totals } = totalsOf(inCurrency, currency);
    return {
      currency,
      plans: [...credits[i]!].map(([plan_id, p]) => planSummary(plan_id, p, read.terms)),
      totals,
      totals_by_currency: totalsByCurrency(groups),
      by_status: byStatusOf(inCurrency),
      deals,
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
  const figures = figuresOfLines([...lines, ...drawLines]);
  const [numbers] = await statementNumbers(ctx.db, [{ userId, period, figures, currency }]);
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
