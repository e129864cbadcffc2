import {
  amountNumber,
  type Fixed,
  formatIn,
  formatPercent,
  lt,
  moneyText,
  parse,
  plain,
  plus,
  roundMinor,
  times,
  ZERO,
} from "../../money/index.js";
import { periodOf } from "./periods.js";
import { creditsOf } from "./plans.js";
import type { AssignmentInput, DealInput, OverrideLevel, PlanInput, ReportingLineInput } from "./types.js";

/** The deepest level an override plan may pay (API.md §16: depth 1–5). */
export const MAX_OVERRIDE_DEPTH = 5;

export interface OverrideLevelExplanation {
  depth: number;
  rate: string;
  users: { user_id: string; credit: string }[];
  credit: string;
  commission: string;
}

export interface OverrideLineExplanation {
  summary: string;
  plan_id: string;
  plan_version: number;
  period: string;
  levels: OverrideLevelExplanation[];
  fx: null;
  unrounded: string;
  amount: number;
}

export interface OverrideLineResult {
  deal_id: string;
  user_id: string;
  plan_id: string;
  plan_version: number;
  period: string;
  kind: "override";
  amount: string;
  explanation: OverrideLineExplanation;
}

/** Who reported to whom, and who holds which override plan: the data every override line reads. */
export interface OverrideContext {
  /** Each user's reporting lines (any order). */
  reporting: Map<string, ReportingLineInput[]>;
  /** Each manager's assignments to override plans. */
  assignments: Map<string, AssignmentInput[]>;
  /** The override plans those assignments name (current version). */
  plans: Map<string, PlanInput>;
}

const inForce = (from: string, to: string | null, date: string): boolean => from <= date && (to === null || date <= to);

/** The user's manager on `date` by their reporting lines; null with no line in force or a line with none. */
export function managerOn(lines: ReportingLineInput[] | undefined, date: string): string | null {
  for (const line of lines ?? []) if (inForce(line.effective_from, line.effective_to, date)) return line.manager_id;
  return null;
}

/** The override plan paying `managerId` on `date`: an active override plan in effect, under an assignment in force. */
function overridePlanOn(ctx: OverrideContext, managerId: string, date: string): PlanInput | null {
  let best: AssignmentInput | undefined;
  for (const a of ctx.assignments.get(managerId) ?? []) {
    if (!inForce(a.effective_from, a.effective_to, date)) continue;
    // One is in force per kind (the API refuses overlaps); if data disagrees, the latest start wins.
    if (best === undefined || a.effective_from > best.effective_from) best = a;
  }
  const plan = best && ctx.plans.get(best.plan_id);
  if (!plan || plan.kind !== "override" || plan.status !== "active") return null;
  if (!inForce(plan.effective_from, plan.effective_to, date)) return null;
  return plan;
}

type Reach = Map<number, { user_id: string; credit: string }[]>;

/**
 * Every manager above the deal's credited users on its close_date, with the credits at each depth below
 * them (depth 1 = direct reports). A manager is never below themselves: a walk stops where it would
 * return to a user it has passed (the API refuses cycles; this only keeps bad data from looping).
 */
function reachOf(deal: DealInput, ctx: OverrideContext): Map<string, Reach> {
  const reach = new Map<string, Reach>();
  for (const credit of creditsOf(deal)) {
    const passed = new Set([credit.user_id]);
    let manager = managerOn(ctx.reporting.get(credit.user_id), deal.close_date);
    for (let depth = 1; manager !== null && depth <= MAX_OVERRIDE_DEPTH && !passed.has(manager); depth++) {
      passed.add(manager);
      const levels = reach.get(manager) ?? new Map<number, { user_id: string; credit: string }[]>();
      reach.set(manager, levels);
      const users = levels.get(depth);
      const entry = { user_id: credit.user_id, credit: credit.credit };
      if (users) users.push(entry);
      else levels.set(depth, [entry]);
      manager = managerOn(ctx.reporting.get(manager), deal.close_date);
    }
  }
  return reach;
}

function levelOf(level: OverrideLevel, users: { user_id: string; credit: string }[], arr: Fixed) {
  let sum = ZERO;
  for (const u of users) sum = plus(sum, parse(u.credit));
  // A split between several people at one depth counts the deal once (API.md §16 O3).
  const capped = lt(arr, sum) ? arr : sum;
  const commission = times(capped, parse(level.rate));
  return { capped, commission, capReached: lt(arr, sum) };
}

function overrideLine(deal: DealInput, managerId: string, plan: PlanInput, reach: Reach): OverrideLineResult | null {
  const arr = parse(deal.arr_amount);
  const levels: OverrideLevelExplanation[] = [];
  const parts: string[] = [];
  let unrounded = ZERO;
  let reached = false;
  for (const level of plan.override_levels ?? []) {
    const users = [...(reach.get(level.depth) ?? [])].sort((a, b) => (a.user_id < b.user_id ? -1 : 1));
    if (users.length > 0) reached = true;
    const { capped, commission, capReached } = levelOf(level, users, arr);
    unrounded = plus(unrounded, commission);
    levels.push({ depth: level.depth, rate: level.rate, users, credit: plain(capped), commission: plain(commission) });
    if (users.length > 0) {
      const cap = capReached ? " (capped at the deal's amount)" : "";
      parts.push(
        `depth ${level.depth}: ${formatIn(capped, plan.currency)}${cap} × ${formatPercent(parse(level.rate))}`,
      );
    }
  }
  if (!reached) return null;
  const amount = roundMinor(unrounded, plan.currency); // the override plan's currency (API.md §15)
  const period = periodOf(plan.period, deal.close_date);
  return {
    deal_id: deal.id,
    user_id: managerId,
    plan_id: plan.id,
    plan_version: plan.version,
    period,
    kind: "override",
    amount: moneyText(amount, plan.currency),
    explanation: {
      summary: `override: ${parts.join(" + ")} = ${formatIn(amount, plan.currency)}`,
      plan_id: plan.id,
      plan_version: plan.version,
      period,
      levels,
      fx: null,
      unrounded: plain(unrounded),
      amount: amountNumber(amount),
    },
  };
}

/**
 * API.md §16: ONE override line per manager with an override plan in force on the deal's close_date and
 * somebody credited within its levels: Σ over levels of min(Σ credits exactly that deep below them, the
 * deal's arr_amount) × rate, rounded once. A manager's own credit never counts toward their override; a
 * credited user with no manager pays nobody. Plans in another currency pay nothing until conversion
 * (§15) exists. Lines are in manager id order.
 */
export function calculateOverrideLines(deal: DealInput, ctx: OverrideContext): OverrideLineResult[] {
  const lines: OverrideLineResult[] = [];
  const reach = reachOf(deal, ctx);
  for (const managerId of [...reach.keys()].sort()) {
    const plan = overridePlanOn(ctx, managerId, deal.close_date);
    if (!plan || plan.currency !== deal.currency) continue;
    const line = overrideLine(deal, managerId, plan, reach.get(managerId)!);
    if (line) lines.push(line);
  }
  return lines;
}
