import {
  currentExplanations,
  type LineChange,
  noImpact,
  type PlanChangeImpact,
  planChangeImpact,
  toPlanInput,
} from "../commissions/index.js";
import type { Db } from "../db/schema.js";
import { notFound } from "../errors.js";
import { offsetOf } from "../http/pagination.js";
import { amountNumber } from "../money/index.js";
import { userNames } from "../users/index.js";
import { type PlanEdit, planEdit } from "./edit.js";
import * as repo from "./repository.js";
import type { PlanImpact, PlanImpactLine, PlanImpactQuery, UpdatePlanBody } from "./schema.js";

/** The plan as stored and the PATCH's edit of it (the same edit the PATCH makes; 404 and 422 as the PATCH). */
export interface PlanChange {
  before: repo.PlanRecord;
  edit: PlanEdit;
}

export async function planChangeOf(tx: Db, id: string, input: UpdatePlanBody, now: Date): Promise<PlanChange> {
  const before = await repo.findPlanRecord(tx, id);
  if (!before) throw notFound("Comp plan", id);
  return { before, edit: await planEdit(tx, before, input, now) };
}

/** Name and description edits move no line; neither does an edit that leaves the plan as it is. */
export const recalculates = ({ edit }: PlanChange): boolean => edit.termsChanged || edit.statusChanged;

/** The answer of POST /comp-plans/{id}/impact for a change, computed in `tx`. */
export async function impactOfChange(tx: Db, change: PlanChange, query: PlanImpactQuery): Promise<PlanImpact> {
  const { before, edit } = change;
  const impact = recalculates(change)
    ? await planChangeImpact(tx, toPlanInput(edit.record), { repriceLocked: edit.termsChanged })
    : noImpact();
  return present(tx, before, edit.record.version, impact, query);
}

async function present(
  db: Db,
  plan: repo.PlanRecord,
  toVersion: number,
  impact: PlanChangeImpact,
  query: PlanImpactQuery,
): Promise<PlanImpact> {
  return {
    plan_id: plan.id,
    from_version: plan.version,
    to_version: toVersion,
    ...(await impactParts(db, impact, query)),
  };
}

/** What every impact answers (a plan change's, a reporting change's): the summary, per user and period, a page of lines. */
export async function impactParts(
  db: Db,
  impact: PlanChangeImpact,
  query: PlanImpactQuery,
): Promise<Pick<PlanImpact, "summary" | "users" | "lines">> {
  const { changes } = impact;
  const changedPeriods = new Map<string, Set<string>>();
  for (const c of changes) {
    const set = changedPeriods.get(c.user_id) ?? new Set();
    set.add(c.period);
    if (c.moved_from) set.add(c.moved_from);
    changedPeriods.set(c.user_id, set);
  }
  const userIds = [...changedPeriods.keys()].sort();
  const names = await userNames(db, userIds);
  const { limit, offset } = offsetOf(query);
  const page = changes.slice(offset, offset + limit);
  const before = await storedExplanations(db, page);
  const deals = await repo.impactDeals(
    db,
    page.map((c) => c.deal_id),
  );
  return {
    summary: {
      users: userIds.length,
      deals: new Set(changes.map((c) => c.deal_id)).size,
      lines: changes.length,
      pending_delta: amountNumber(impact.pendingDelta),
      locked_delta: amountNumber(impact.lockedDelta),
    },
    users: userIds.map((user_id) => ({
      user_id,
      name: names.get(user_id) ?? "",
      periods: [...changedPeriods.get(user_id)!].sort().map((period) => {
        const sums = impact.periods.get(user_id)?.get(period);
        const side = (part: "pending" | "locked") => ({
          before: sums ? amountNumber(sums[part].before) : 0,
          after: sums ? amountNumber(sums[part].after) : 0,
        });
        return { period, pending: side("pending"), locked: side("locked") };
      }),
    })),
    lines: {
      data: page.map((c) => lineOf(c, deals.get(c.deal_id)!, before.get(c.line_id ?? "") ?? null)),
      meta: { page: query.page, per_page: query.per_page, total: changes.length },
    },
  };
}

function lineOf(
  c: LineChange,
  deal: { opportunity_name: string; close_date: string },
  explanationBefore: unknown,
): PlanImpactLine {
  // The explanations follow c.kind: the engine wrote them for a line of that kind.
  return {
    line_id: c.line_id,
    deal_id: c.deal_id,
    opportunity_name: deal.opportunity_name,
    close_date: deal.close_date,
    user_id: c.user_id,
    kind: c.kind,
    period: c.period,
    status: c.status,
    locked: c.locked,
    before: amountNumber(c.before),
    after: amountNumber(c.after),
    delta: amountNumber(c.delta),
    explanation_before: explanationBefore,
    explanation_after: c.explanation_after,
  } as PlanImpactLine;
}

/**
 * The explanations of what the page's lines pay now (only the page's: a wide change lists thousands);
 * a locked line corrected before is explained by its latest correction, as its `before` amount is.
 */
async function storedExplanations(db: Db, page: LineChange[]): Promise<Map<string, unknown>> {
  return currentExplanations(
    db,
    page.flatMap((c) => (c.line_id ? [c.line_id] : [])),
  );
}
