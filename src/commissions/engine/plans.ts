import { divPow10, fx, isPlainText, parse, parseInto, plain, scratch, sign, times } from "../../money/index.js";
import { conversionFor } from "./convert.js";
import type {
  AssignmentInput,
  Credit,
  DealInput,
  FxRate,
  NoPlan,
  NoPlanExplanation,
  PlanInput,
  PlanMatch,
} from "./types.js";

/** Each credited user's share: credit = arr_amount × percent / 100, exact. */
export function creditsOf(deal: Pick<DealInput, "arr_amount" | "splits">): Credit[] {
  return deal.splits.map((split) => ({
    user_id: split.user_id,
    percent: split.percent,
    credit: creditText(deal.arr_amount, split.percent),
  }));
}

/** arr × percent / 100 in plain notation; a whole credit is the amount's own text when that is plain. */
function creditText(arr: string, percent: string): string {
  if (parseInto(percent)) {
    const pc = scratch.c;
    const ps = scratch.s;
    if (pc === 100 && ps === 0 && isPlainText(arr)) return arr;
    if (parseInto(arr)) {
      const c = scratch.c * pc;
      if (c <= Number.MAX_SAFE_INTEGER && c >= -Number.MAX_SAFE_INTEGER) return plain(fx(c, scratch.s + ps + 2));
    }
  }
  return plain(divPow10(times(parse(arr), parse(percent)), 2));
}

const byteLess = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Deal order of §5: close_date, then created_at, then id compared as bytes. */
export function compareDealOrder(
  a: Pick<DealInput, "close_date" | "created_at" | "id">,
  b: Pick<DealInput, "close_date" | "created_at" | "id">,
): number {
  return byteLess(a.close_date, b.close_date) || byteLess(a.created_at, b.created_at) || byteLess(a.id, b.id);
}

const inForce = (from: string, to: string | null, date: string): boolean => from <= date && (to === null || date <= to);

function assignmentOn(userId: string, date: string, assignments: AssignmentInput[]): AssignmentInput | undefined {
  // At most one is in force (the API refuses overlaps); if data disagrees, the latest start wins, then the
  // smaller id (one pass, no sorting: this runs once per credit).
  let best: AssignmentInput | undefined;
  for (const a of assignments) {
    if (a.user_id !== userId || !inForce(a.effective_from, a.effective_to, date)) continue;
    if (best === undefined || (byteLess(a.effective_from, best.effective_from) || byteLess(best.id, a.id)) > 0)
      best = a;
  }
  return best;
}

function latestVersion(planId: string, plans: PlanInput[]): PlanInput | undefined {
  let latest: PlanInput | undefined;
  for (const p of plans) if (p.id === planId && (latest === undefined || p.version > latest.version)) latest = p;
  return latest;
}

const aboveZero = (text: string): boolean => (parseInto(text) ? scratch.c > 0 : sign(parse(text)) > 0);

function planProblem(plan: PlanInput, quota: string | null, date: string, currency: string, convert: boolean) {
  if (plan.status !== "active") return `plan ${plan.id} is ${plan.status}`;
  if (!inForce(plan.effective_from, plan.effective_to, date)) {
    const to = plan.effective_to ?? "open-ended";
    return `plan ${plan.id} is not in effect on ${date} (effective ${plan.effective_from} to ${to})`;
  }
  if (!convert && plan.currency !== currency) return `currency mismatch: deal ${currency}, plan ${plan.currency}`;
  const hasTiers = plan.tiers !== null && plan.tiers.length > 0;
  if (hasTiers && (quota === null || !aboveZero(quota))) {
    return `plan ${plan.id} has tiers but no quota above 0`;
  }
  if (!hasTiers && plan.base_rate === null) return `plan ${plan.id} has neither tiers nor base_rate`;
  return null;
}

/**
 * Rule 1 of §5: the plan a user's credit on a deal closing on `closeDate` earns under, or why none.
 * `rates` (the deal's `fx_rates`, §15) turns conversion on: a plan in another currency then matches with
 * its rate (`fx`), or answers the missing pair; without `rates` it is a "currency mismatch", as before §15.
 */
export function findPlan(
  userId: string,
  closeDate: string,
  currency: string,
  assignments: AssignmentInput[],
  plans: PlanInput[],
  rates?: FxRate[],
): PlanMatch | NoPlan {
  const assignment = assignmentOn(userId, closeDate, assignments);
  if (!assignment) return { reason: `no plan assignment in force on ${closeDate}` };
  const plan = latestVersion(assignment.plan_id, plans);
  if (!plan) return { reason: `plan ${assignment.plan_id} not found` };
  const quota = assignment.quota_override ?? plan.quota;
  const problem = planProblem(plan, quota, closeDate, currency, rates !== undefined);
  if (problem !== null) return { reason: problem };
  if (plan.currency === currency) return { plan, assignment, quota };
  const conversion = conversionFor(
    { currency, close_date: closeDate, fx_rates: rates },
    plan.currency,
    plan.fx_max_age_days,
  );
  if (conversion.fx === undefined) return { reason: conversion.reason, fx_missing: conversion.missing };
  return { plan, assignment, quota, fx: conversion.fx };
}

/** The deal-level explanation when a credited user earns no plan line. */
export function noPlanExplanation(reason: string): NoPlanExplanation {
  return { summary: `no plan in force: ${reason}`, reason };
}
