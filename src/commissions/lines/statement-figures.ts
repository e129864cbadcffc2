import {
  addRatios,
  amountNumber,
  type Fixed,
  parse,
  parseRatio,
  plus,
  type Ratio,
  ratioFixed,
  ZERO,
} from "../../money/index.js";
import type { Commission, Statement } from "../schema.js";

/**
 * A statement's numbers need its lines only summed by kind, plan version, status and currency: a
 * person's statement groups its lines here, the team page has PostgreSQL group them (thousands of lines
 * a page), and both reach the same numbers from the same groups.
 */
export interface FigureGroup {
  kind: Commission["kind"];
  plan_id: string | null;
  plan_version: number | null;
  status: Commission["status"];
  currency: string;
  lines: number;
  /** Σ amount, exact. */
  amount: Fixed;
  /** Σ of the plan lines' credits (their explanations'), exact: a converted credit may not terminate (API.md §15). */
  credit: Ratio;
  /** The quota of the group's latest-calculated plan line, and when it was calculated. */
  quota: string | null;
  at: string;
}

/** A statement's groups and the distinct deals of its plan lines. */
export interface StatementFigures {
  groups: FigureGroup[];
  deals: number;
}

/** What grouping reads of a line: its own columns and, of its explanation, the credit and quota. */
export type FigureLine = Pick<
  Commission,
  "deal_id" | "kind" | "plan_id" | "plan_version" | "amount" | "status" | "calculated_at" | "currency"
> & { explanation: unknown };

export const NO_CREDIT: Ratio = { num: 0n, den: 1n };

/** The figures of lines already read (a person's statement). */
export function figuresOfLines(lines: readonly FigureLine[]): StatementFigures {
  const groups = new Map<string, FigureGroup>();
  const deals = new Set<string | null>();
  for (const line of lines) {
    const key = `${line.kind}\u0000${line.plan_id}\u0000${line.plan_version}\u0000${line.status}\u0000${line.currency}`;
    const group = groups.get(key) ?? {
      kind: line.kind,
      plan_id: line.plan_id,
      plan_version: line.plan_version,
      status: line.status,
      currency: line.currency,
      lines: 0,
      amount: ZERO,
      credit: NO_CREDIT,
      quota: null,
      at: "",
    };
    group.lines += 1;
    group.amount = plus(group.amount, parse(line.amount));
    if (line.kind === "plan") {
      deals.add(line.deal_id);
      const e = line.explanation as { quota?: string | null; credit?: string | number };
      group.credit = addRatios(group.credit, parseRatio(e.credit ?? 0));
      if (line.calculated_at >= group.at) Object.assign(group, { quota: e.quota ?? null, at: line.calculated_at });
    }
    groups.set(key, group);
  }
  return { groups: [...groups.values()], deals: deals.size };
}

type CurrencyTotals = Statement["totals_by_currency"][number];
const KINDS = ["plan", "spiff", "override", "adjustment", "clawback", "draw"] as const;

/** Σ of one currency's groups by kind. */
export function totalsOf(groups: readonly FigureGroup[], currency: string): CurrencyTotals {
  const sums: Record<string, Fixed> = Object.fromEntries(KINDS.map((k) => [k, ZERO]));
  let total = ZERO;
  for (const group of groups) {
    sums[group.kind] = plus(sums[group.kind] ?? ZERO, group.amount);
    total = plus(total, group.amount);
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

/** Per currency the groups are in, sorted by code. */
export function totalsByCurrency(groups: readonly FigureGroup[]): CurrencyTotals[] {
  const currencies = [...new Set(groups.map((g) => g.currency))].sort();
  return currencies.map((c) =>
    totalsOf(
      groups.filter((g) => g.currency === c),
      c,
    ),
  );
}

export function byStatusOf(groups: readonly FigureGroup[]): Statement["by_status"] {
  const sums = { pending: ZERO, approved: ZERO, paid: ZERO };
  for (const g of groups) if (g.status !== "void") sums[g.status] = plus(sums[g.status], g.amount);
  return { pending: amountNumber(sums.pending), approved: amountNumber(sums.approved), paid: amountNumber(sums.paid) };
}

/** How many lines are in each currency. */
export function lineCountByCurrency(groups: readonly FigureGroup[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const g of groups) counts.set(g.currency, (counts.get(g.currency) ?? 0) + g.lines);
  return counts;
}

export type PlanCredit = { quota: string | null; at: string; credit: Fixed; earned: Fixed; version: number };

/** Attainment is shown to the minor unit and its ratio to 4 places: 12 keep every terminating sum exact. */
const CREDIT_PLACES = 12;

/**
 * Per plan: the quota of its latest-calculated line and the credit booked under it in the period
 * (every non-void plan line stands for one counted deal credit, pending or locked).
 */
export function creditsByPlan(groups: readonly FigureGroup[]): Map<string, PlanCredit> {
  const plans = new Map<string, PlanCredit>();
  const credits = new Map<string, Ratio>();
  for (const group of groups) {
    if (group.kind !== "plan" || !group.plan_id) continue;
    const seen = plans.get(group.plan_id) ?? { quota: null, at: "", credit: ZERO, earned: ZERO, version: 0 };
    // The latest calculation's quota, the higher version on a tie: the same whatever order the groups come in.
    const version = group.plan_version ?? 0;
    if (group.at > seen.at || (group.at === seen.at && version >= seen.version)) {
      Object.assign(seen, { quota: group.quota, at: group.at, version });
    }
    credits.set(group.plan_id, addRatios(credits.get(group.plan_id) ?? NO_CREDIT, group.credit));
    seen.earned = plus(seen.earned, group.amount);
    plans.set(group.plan_id, seen);
  }
  for (const [planId, plan] of plans) plan.credit = ratioFixed(credits.get(planId)!, CREDIT_PLACES);
  return plans;
}
