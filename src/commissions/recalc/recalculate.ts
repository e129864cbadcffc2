import type { Ctx, Tx } from "../../context.js";
import type { JobKind } from "../../jobs/kinds.js";
import { enqueueJob } from "../../jobs/queue.js";
import { type Fixed, parse, plain, plus, ZERO } from "../../money/index.js";
import { lockExistingUsers } from "../../users/index.js";
import { countCredits } from "./credits-repository.js";
import { refreshFxMissing, updateOverrideFxMissing } from "./fx-missing-repository.js";
import { emitLineEvents } from "./line-events-repository.js";
import { lockSpiffs } from "./locks-repository.js";
import { overrideDealIds } from "./overrides-repository.js";
import { planRecalc, type RecalcPlan } from "./plan.js";
import { addToTotals, updateTotals } from "./totals-repository.js";
import type { CreditRow, RecalcTarget } from "./types.js";
import { applyDiff, diffSize, settle, updateNoPlanReasons } from "./write-repository.js";

/** total_commission = Σ non-void lines, for deals whose lines changed outside a recalculation (e.g. voided). */
export function refreshTotals(tx: Tx, now: Date, dealIds: string[]): Promise<void> {
  return updateTotals(tx, now, dealIds);
}

/*
 * The affected set of a change. A pending deal's credit to one user is the unit: it is re-matched to
 * its plan (§5 rule 1), its SPIFF lines and no-plan note are redone, and the (user, plan, period)
 * buckets it left and joined are recomputed whole (every later line's prior attainment and cap room
 * depend on it). Targets name what changed so a job can re-resolve them: a deal (its credits, plus
 * buckets it left, captured before the change), a user's assignment ranges, a plan, or SPIFF windows.
 * Locked lines are read, never written; rejected deals are outside every bucket.
 */

export const RECALC_JOB_KIND: JobKind = "recalculate";

let defaultInlineLimit = 1000;

/** Lines a change may rewrite inline; beyond it the rest runs as a job. Tests lower it. */
export function setInlineLimit(limit: number): void {
  defaultInlineLimit = limit;
}

export interface RecalcOptions {
  /** Deals whose own lines are always written inline, even when the rest goes to a job. */
  primaryDeals?: string[];
  /** Runs once lines and totals are written, before the `commission.calculated` events (deal.* first). */
  announce?: () => Promise<void>;
  inlineLimit?: number;
  /**
   * Pending deals the caller has not stored yet: planned as if stored (a `deals` target names them),
   * then `save`d with their final totals before any line is written, so a new deal is written once
   * instead of inserted and then updated with its total.
   */
  unsaved?: { credits: CreditRow[]; save: (totals: Map<string, string>) => Promise<void> };
}

export interface RecalcResult {
  jobId: string | null;
}

/**
 * Takes the locks a recalculation needs, in the one global order (SPIFFs, then users by id) so
 * concurrent changes serialize instead of deadlocking. Returns the ids among `users` that exist.
 */
export async function lockForRecalc(
  tx: Tx,
  options: { spiffs?: "shared" | "exclusive"; users?: string[] } = {},
): Promise<Set<string>> {
  await lockSpiffs(tx, options.spiffs === "exclusive" ? "exclusive" : "shared");
  return lockExistingUsers(tx, options.users ?? []);
}

/** Writes a computed plan, or only the lines of `onlyDeals` when given. Returns the lines written. */
export async function applyPlan(
  tx: Tx,
  ctx: Ctx,
  plan: RecalcPlan,
  onlyDeals?: Set<string>,
  announce?: () => Promise<void>,
): Promise<number> {
  const keep = <T extends { deal_id: string }>(items: T[]) =>
    onlyDeals ? items.filter((i) => onlyDeals.has(i.deal_id)) : items;
  await settle(plan.diff, onlyDeals && ((id) => onlyDeals.has(id)));
  const diff = {
    inserts: keep(plan.diff.inserts),
    updates: plan.diff.updates.filter((u) => !onlyDeals || onlyDeals.has(u.before.deal_id)),
    deletes: keep(plan.diff.deletes),
    unsure: [],
  };
  const reasons = keep(plan.reasons);
  const { deltas, events } = await applyDiff(tx, ctx.now, diff);
  await updateNoPlanReasons(tx, reasons);
  await updateOverrideFxMissing(tx, keep(plan.overrideFx));
  await refreshFxMissing(tx, ctx.now, onlyDeals ? plan.fxDeals.filter((id) => onlyDeals.has(id)) : plan.fxDeals);
  // A deal whose own data or status changed is summed again whole; the others move by what was written.
  const changed = keep(plan.deals.map((deal_id) => ({ deal_id }))).map((d) => d.deal_id);
  for (const id of changed) deltas.delete(id);
  await addToTotals(tx, ctx.now, deltas);
  await updateTotals(tx, ctx.now, changed);
  await announce?.();
  await emitLineEvents(tx, ctx, events);
  return diffSize(diff);
}

async function enqueue(tx: Tx, ctx: Ctx, targets: RecalcTarget[], total: number): Promise<string> {
  const job = await enqueueJob(tx, ctx.now, { kind: RECALC_JOB_KIND, payload: { targets, env: ctx.env }, total });
  return job.id;
}

/**
 * Recalculates every pending line the targets affect, in the caller's transaction (which must hold
 * `lockForRecalc`). Over the inline limit, only `primaryDeals`' own lines are written now and a job
 * does the rest in short batches; until it finishes, reads show the previous amounts.
 */
export async function recalculate(
  tx: Tx,
  ctx: Ctx,
  targets: RecalcTarget[],
  options: RecalcOptions = {},
): Promise<RecalcResult> {
  const { unsaved } = options;
  if (targets.length === 0) {
    await unsaved?.save(new Map());
    await options.announce?.();
    return { jobId: null };
  }
  const limit = options.inlineLimit ?? defaultInlineLimit;
  if (!unsaved && targets.some((t) => t.type !== "deals")) {
    // Plan, assignment and SPIFF changes can reach every deal: count before computing anything.
    const credits = (await countCredits(tx, targets)) + (await overrideDealIds(tx, targets)).length;
    if (credits > limit) {
      await options.announce?.();
      return { jobId: await enqueue(tx, ctx, targets, credits) };
    }
  }
  const plan = await planRecalc(tx, targets, { unsaved: unsaved?.credits, lock: true });
  if (unsaved) await unsaved.save(totalsOf(plan, new Set(unsaved.credits.map((c) => c.deal.id))));
  // Explanations are compared only when the lines certainly written leave room under the limit.
  if (diffSize(plan.diff) <= limit) await settle(plan.diff);
  if (diffSize(plan.diff) <= limit) {
    await applyPlan(tx, ctx, plan, undefined, options.announce);
    return { jobId: null };
  }
  const size = diffSize(plan.diff) + plan.diff.unsure.length;
  await applyPlan(tx, ctx, plan, new Set(options.primaryDeals ?? []), options.announce);
  return { jobId: await enqueue(tx, ctx, targets, size) };
}

/** Σ of the lines the plan inserts for these deals (deals with no stored line: their whole total). */
function totalsOf(plan: RecalcPlan, dealIds: Set<string>): Map<string, string> {
  const sums = new Map<string, Fixed>();
  for (const line of plan.diff.inserts) {
    if (dealIds.has(line.deal_id)) sums.set(line.deal_id, plus(sums.get(line.deal_id) ?? ZERO, parse(line.amount)));
  }
  return new Map([...sums].map(([id, sum]) => [id, plain(sum)]));
}
