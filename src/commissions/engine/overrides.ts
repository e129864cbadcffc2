import {
  amountNumber,
  type Fixed,
  formatIn,
  formatMoney,
  formatPercent,
  fx,
  lt,
  minorUnits,
  moneyText,
  norm,
  parse,
  plain,
  plus,
  quotient,
  ratioText,
  times,
  ZERO,
} from "../../money/index.js";
import { conversionFor, convertScaled, fxExplanation, fxSummary, roundLine } from "./convert.js";
import { periodOf } from "./periods.js";
import { creditsOf } from "./plans.js";
import type {
  AssignmentInput,
  DealInput,
  FxExplanation,
  FxMissing,
  FxRate,
  OverrideLevel,
  PlanInput,
  ReportingLineInput,
} from "./types.js";

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
  /** §15: null unless the deal is in another currency; then every credit here is converted. */
  fx: FxExplanation | null;
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
  /** The override plan's (API.md §15). */
  currency: string;
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
  if (plan?.kind !== "override" || plan.status !== "active") return null;
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

/** Credits and amounts of a converted line in units of 1/rate.den (§15); as they are without a rate. */
interface Units {
  rate: FxRate | null;
  scale: bigint;
  of: (amount: Fixed) => Fixed;
  text: (f: Fixed) => string;
  money: (f: Fixed) => string;
}

/** `places`: the decimals of the override plan's currency, the summary's figures are shown with. */
function unitsOf(rate: FxRate | null, places: number): Units {
  if (rate === null) return { rate: null, scale: 1n, of: (a) => a, text: plain, money: (f) => formatMoney(f, places) };
  const den = fx(norm(rate.den));
  return {
    rate,
    scale: rate.den,
    of: (a) => convertScaled(a, rate, rate.den),
    text: (f) => ratioText(f, rate.den),
    money: (f) => formatMoney(quotient(f, den, places), places),
  };
}

function levelOf(level: OverrideLevel, users: { user_id: string; credit: string }[], arr: Fixed, units: Units) {
  let sum = ZERO;
  for (const u of users) sum = plus(sum, units.of(parse(u.credit)));
  // A split between several people at one depth counts the deal once (API.md §16 O3).
  const capped = lt(arr, sum) ? arr : sum;
  const commission = times(capped, parse(level.rate));
  return { capped, commission, capReached: lt(arr, sum) };
}

function overrideLine(
  deal: DealInput,
  managerId: string,
  plan: PlanInput,
  reach: Reach,
  units: Units,
): OverrideLineResult | null {
  const arr = units.of(parse(deal.arr_amount));
  const levels: OverrideLevelExplanation[] = [];
  const parts: string[] = [];
  let unrounded = ZERO;
  let dealCredit = ZERO;
  let reached = false;
  for (const level of plan.override_levels ?? []) {
    const found = [...(reach.get(level.depth) ?? [])].sort((a, b) => (a.user_id < b.user_id ? -1 : 1));
    if (found.length > 0) reached = true;
    for (const u of found) dealCredit = plus(dealCredit, parse(u.credit));
    const users =
      units.rate === null ? found : found.map((u) => ({ ...u, credit: units.text(units.of(parse(u.credit))) }));
    const { capped, commission, capReached } = levelOf(level, found, arr, units);
    unrounded = plus(unrounded, commission);
    levels.push({
      depth: level.depth,
      rate: level.rate,
      users,
      credit: units.text(capped),
      commission: units.text(commission),
    });
    if (found.length > 0) {
      const cap = capReached ? " (capped at the deal's amount)" : "";
      parts.push(`depth ${level.depth}: ${units.money(capped)}${cap} × ${formatPercent(parse(level.rate))}`);
    }
  }
  if (!reached) return null;
  const rate = units.rate;
  // Rounded once, in the override plan's currency (API.md §15).
  const amount = roundLine(unrounded, plan.currency, rate === null ? null : units.scale);
  const converted = units.of(dealCredit);
  const fxText = rate === null ? "" : `${fxSummary(rate, dealCredit, converted, units.scale)} credit; `;
  const period = periodOf(plan.period, deal.close_date);
  return {
    deal_id: deal.id,
    user_id: managerId,
    plan_id: plan.id,
    plan_version: plan.version,
    period,
    kind: "override",
    amount: moneyText(amount, plan.currency),
    currency: plan.currency,
    explanation: {
      summary: `override: ${fxText}${parts.join(" + ")} = ${formatIn(amount, plan.currency)}`,
      plan_id: plan.id,
      plan_version: plan.version,
      period,
      levels,
      fx: rate === null ? null : fxExplanation(rate, dealCredit, units.text(converted)),
      unrounded: units.text(unrounded),
      amount: amountNumber(amount),
    },
  };
}

/**
 * API.md §16: ONE override line per manager with an override plan in force on the deal's close_date and
 * somebody credited within its levels: Σ over levels of min(Σ credits exactly that deep below them, the
 * deal's arr_amount) × rate, rounded once. A manager's own credit never counts toward their override; a
 * credited user with no manager pays nobody. A plan in another currency converts every credit and the
 * deal's amount (§15) with the deal's `fx_rates` (absent: it pays nothing, as before §15); with no usable
 * rate there is no line and the pair goes to `missing` once. Lines are in manager id order.
 */
export function calculateOverrideLines(
  deal: DealInput,
  ctx: OverrideContext,
  missing?: FxMissing[],
): OverrideLineResult[] {
  const lines: OverrideLineResult[] = [];
  const reach = reachOf(deal, ctx);
  for (const managerId of [...reach.keys()].sort()) {
    const plan = overridePlanOn(ctx, managerId, deal.close_date);
    const levels = reach.get(managerId)!;
    if (!plan || !(plan.override_levels ?? []).some((l) => levels.has(l.depth))) continue;
    let units = unitsOf(null, minorUnits(plan.currency));
    if (plan.currency !== deal.currency) {
      if (deal.fx_rates === undefined) continue;
      const conversion = conversionFor(deal, plan.currency, plan.fx_max_age_days);
      if (conversion.fx === undefined) {
        const pair = conversion.missing;
        if (missing && !missing.some((m) => m.from === pair.from && m.to === pair.to)) missing.push(pair);
        continue;
      }
      units = unitsOf(conversion.fx, minorUnits(plan.currency));
    }
    const line = overrideLine(deal, managerId, plan, levels, units);
    if (line) lines.push(line);
  }
  return lines;
}
