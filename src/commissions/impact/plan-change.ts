import type { Db } from "../../db/schema.js";
import { cmp, type Fixed, minus, parse, plus, sign, ZERO } from "../../money/index.js";
import { noPlanExplanation, type PlanInput, type ReportingLineInput } from "../engine/index.js";
import {
  countCredits,
  countPlanLines,
  type DesiredLine,
  type EntryReader,
  type ExistingLine,
  type PlanOptions,
  planRecalc,
  type RecalcTarget,
  repriceLockedLines,
  sharedEntryReads,
} from "../recalc/index.js";

/*
 * What a plan edit would do (API.md §12), computed by the code that applies it with nothing written:
 * pending lines through the same recalculation plan a PATCH writes (`planRecalc` with the new terms in
 * place of the stored ones), locked lines repriced as if nothing were locked (recalc/reprice.ts). Both
 * sides compute over the same people's buckets, read once (`sharedEntryReads`).
 */

export interface LineChange {
  /** The stored line (a locked line: the one a retroactive adjustment would correct); null for a new line. */
  line_id: string | null;
  deal_id: string;
  user_id: string;
  kind: "plan" | "spiff" | "override";
  /** The line's period after the change (a deleted line: before it). */
  period: string;
  /** The period it leaves when the change moves it (a plan's period kind changed); else null. */
  moved_from: string | null;
  /** pending for lines the change recalculates; approved or paid for locked ones. */
  status: string;
  locked: boolean;
  before: Fixed;
  after: Fixed;
  delta: Fixed;
  /** Under the new terms; for a line the change removes, why it earns nothing (null when no reason is known). */
  explanation_after: Record<string, unknown> | null;
}

export interface Sums {
  before: Fixed;
  after: Fixed;
}

export interface PeriodImpact {
  pending: Sums;
  locked: Sums;
}

export interface PlanChangeImpact {
  /** Changed lines only (amount or period), largest |delta| first. */
  changes: LineChange[];
  /** Per user, per period: the sums over every line the change recomputes (changed or not). */
  periods: Map<string, Map<string, PeriodImpact>>;
  pendingDelta: Fixed;
  lockedDelta: Fixed;
}

const zeroSums = (): PeriodImpact => ({
  pending: { before: ZERO, after: ZERO },
  locked: { before: ZERO, after: ZERO },
});

class Totals {
  readonly periods = new Map<string, Map<string, PeriodImpact>>();

  add(user: string, period: string, part: "pending" | "locked", side: keyof Sums, amount: Fixed): void {
    const byPeriod = this.periods.get(user) ?? new Map<string, PeriodImpact>();
    this.periods.set(user, byPeriod);
    const sums = byPeriod.get(period) ?? zeroSums();
    byPeriod.set(period, sums);
    sums[part][side] = plus(sums[part][side], amount);
  }
}

const pendingAmount = (line: ExistingLine | undefined): Fixed =>
  line && line.status === "pending" ? parse(line.amount) : ZERO;

function byLargestDelta(a: LineChange, b: LineChange): number {
  const abs = (f: Fixed) => (sign(f) < 0 ? minus(ZERO, f) : f);
  return (
    cmp(abs(b.delta), abs(a.delta)) ||
    (a.deal_id < b.deal_id ? -1 : a.deal_id > b.deal_id ? 1 : 0) ||
    (a.user_id < b.user_id ? -1 : a.user_id > b.user_id ? 1 : 0) ||
    (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) ||
    ((a.line_id ?? "") < (b.line_id ?? "") ? -1 : 1)
  );
}

/** The pending side: every line the recalculation would insert, update, delete or keep. */
async function pendingChanges(
  db: Db,
  targets: RecalcTarget[],
  options: PlanOptions,
  totals: Totals,
): Promise<LineChange[]> {
  const recalc = await planRecalc(db, targets, options);
  const reasonOf = new Map(recalc.reasons.map((r) => [`${r.deal_id}|${r.user_id}`, r.reason]));
  const { inserts, updates, deletes, unsure } = recalc.diff;
  const pairs: { before?: ExistingLine; after?: DesiredLine }[] = [
    ...inserts.map((after) => ({ after })),
    ...updates,
    ...unsure,
    ...deletes.map((before) => ({ before })),
  ];
  const changes: LineChange[] = [];
  for (const { before, after } of pairs) {
    const line = (after ?? before)!;
    const was = pendingAmount(before);
    const now = after ? parse(after.amount) : ZERO;
    const period = after?.period ?? before!.period;
    if (before?.status === "pending") totals.add(line.user_id, before.period, "pending", "before", was);
    if (after) totals.add(line.user_id, after.period, "pending", "after", now);
    const moved = before?.status === "pending" && after !== undefined && before.period !== after.period;
    if (cmp(was, now) === 0 && !moved) continue;
    const reason = reasonOf.get(`${line.deal_id}|${line.user_id}`);
    changes.push({
      // A void line the change brings back is new to the reader: no id, no explanation before.
      line_id: before?.status === "pending" ? before.id : null,
      deal_id: line.deal_id,
      user_id: line.user_id,
      kind: line.kind,
      period,
      moved_from: moved ? before.period : null,
      status: "pending",
      locked: false,
      before: was,
      after: now,
      delta: minus(now, was),
      explanation_after: after ? after.explanation : reason ? { ...noPlanExplanation(reason) } : null,
    });
  }
  return changes;
}

/** The locked side: each locked plan line of the plan, repriced as if nothing were locked. */
async function lockedChanges(db: Db, plan: PlanInput, totals: Totals, readEntries: EntryReader): Promise<LineChange[]> {
  const changes: LineChange[] = [];
  for (const { line, after, explanation } of await repriceLockedLines(db, plan, undefined, readEntries)) {
    const was = parse(line.amount);
    const now = parse(after);
    totals.add(line.user_id, line.period, "locked", "before", was);
    totals.add(line.user_id, line.period, "locked", "after", now);
    if (cmp(was, now) === 0) continue;
    changes.push({
      line_id: line.id,
      deal_id: line.deal_id,
      user_id: line.user_id,
      kind: "plan",
      period: line.period,
      moved_from: null,
      status: line.status,
      locked: true,
      before: was,
      after: now,
      delta: minus(now, was),
      explanation_after: explanation,
    });
  }
  return changes;
}

/**
 * The effect of giving plan `plan.id` the terms and status of `plan` now, computed with nothing written.
 * Locked lines are repriced only when the terms change (`repriceLocked`): a status change alone moves
 * pending lines, never locked history.
 */
export async function planChangeImpact(
  db: Db,
  plan: PlanInput,
  options: { repriceLocked: boolean },
): Promise<PlanChangeImpact> {
  const totals = new Totals();
  const entries = sharedEntryReads();
  const pending = await pendingChanges(
    db,
    [{ type: "plan", plan_id: plan.id }],
    { plans: new Map([[plan.id, plan]]), entries },
    totals,
  );
  const locked = options.repriceLocked ? await lockedChanges(db, plan, totals, entries) : [];
  const sum = (items: LineChange[]) => items.reduce((acc, c) => plus(acc, c.delta), ZERO);
  return {
    changes: [...pending, ...locked].sort(byLargestDelta),
    periods: totals.periods,
    pendingDelta: sum(pending),
    lockedDelta: sum(locked),
  };
}

/**
 * The effect of giving these users the reporting histories of `reporting` (API.md §16): the pending
 * override lines of the deals it reaches, recomputed with nothing written. Locked lines never move.
 */
export async function reportingChangeImpact(
  db: Db,
  target: RecalcTarget,
  reporting: Map<string, ReportingLineInput[]>,
): Promise<PlanChangeImpact> {
  const totals = new Totals();
  const pending = await pendingChanges(db, [target], { reporting }, totals);
  return {
    changes: pending.sort(byLargestDelta),
    periods: totals.periods,
    pendingDelta: pending.reduce((acc, c) => plus(acc, c.delta), ZERO),
    lockedDelta: ZERO,
  };
}

/**
 * About how many lines an impact of plan `planId` computes, to choose between the request and a job: an
 * active plan's lines (its pending credits have them; its locked lines are repriced), counted from an
 * index alone. A draft or archived plan has no pending lines, and an edit that activates it prices every
 * pending credit of its people: those are counted as the PATCH counts them (`countCredits`).
 */
export async function impactSize(db: Db, planId: string): Promise<number> {
  const { lines, active } = await countPlanLines(db, planId);
  return active ? lines : lines + (await countCredits(db, [{ type: "plan", plan_id: planId }]));
}

/** The impact of an edit that moves no line. */
export function noImpact(): PlanChangeImpact {
  return { changes: [], periods: new Map(), pendingDelta: ZERO, lockedDelta: ZERO };
}
