import type { Db } from "../../db/schema.js";
import { mapTurning, turnIfDue } from "../../event-loop.js";
import type { FxMissing, PlanInput, ReportingLineInput, SpiffInput } from "../engine/index.js";
import { appendToBuckets } from "./append-repository.js";
import {
  bucketOf,
  byBucket,
  computePlaced,
  isMatch,
  land,
  matchCredit,
  spiffLinesOf,
  uniqueBuckets,
} from "./compute.js";
import { loadCredits } from "./credits-repository.js";
import { loadBucketEntries } from "./entries-repository.js";
import { type FxMissingChange, pairsChanged, sortPairs } from "./fx-missing.js";
import { loadUnlockedLines } from "./lines-repository.js";
import { planOverrides } from "./overrides.js";
import { attachRates, currenciesOf } from "./rates-repository.js";
import { loadPlanContext, loadSpiffs } from "./terms-repository.js";
import {
  type BucketKey,
  bucketId,
  type CreditRow,
  creditId,
  type DesiredLine,
  type EntryReader,
  type EntryRow,
  type ExistingLine,
  type PlanContext,
  type RecalcTarget,
} from "./types.js";
import { diffLines, type LineDiff, type ReasonChange } from "./write-repository.js";

/** Everything one recalculation would write, computed before writing anything. */
export interface RecalcPlan {
  diff: LineDiff;
  reasons: ReasonChange[];
  /** Deals whose own data or status changed: their totals are refreshed even if no line moved. */
  deals: string[];
  /** Deals whose override lines miss other rates than stored (API.md §15). */
  overrideFx: FxMissingChange[];
  /** Deals whose `fx_missing` may have changed (a credit's or the override lines' pairs did). */
  fxDeals: string[];
}

const distinct = (values: Iterable<string>) => [...new Set(values)];

function dateSpan(credits: CreditRow[]): { from: string; to: string } | null {
  if (credits.length === 0) return null;
  const dates = credits.map((c) => c.deal.close_date).sort();
  return { from: dates[0]!, to: dates[dates.length - 1]! };
}

function oldBucket(line: ExistingLine | undefined): BucketKey | null {
  if (line?.kind !== "plan" || line.status !== "pending" || !line.plan_id) return null;
  return { user_id: line.user_id, plan_id: line.plan_id, period: line.period };
}

interface Scope {
  credits: CreditRow[];
  creditIds: Set<string>;
  fullDeals: Set<string>;
  /** Every credit's buckets are recomputed (deal, plan and assignment changes), not only moved ones. */
  touchAll: boolean;
  inBatch: (user: string) => boolean;
  existing: ExistingLine[];
  buckets: BucketKey[];
  /** Ids of the buckets a stored deal joins or leaves (the others only new deals join). */
  storedBuckets: Set<string>;
}

/** The credits the targets reach, their unlocked lines, and the buckets changed deals left. */
async function scopeOf(
  tx: Db,
  targets: RecalcTarget[],
  users: string[] | undefined,
  unsaved: CreditRow[],
): Promise<Scope> {
  const batch = users && new Set(users);
  const inBatch = (user: string) => batch === undefined || batch.has(user);
  const credits = (await loadCredits(tx, targets, users)).concat(unsaved.filter((c) => inBatch(c.user_id)));
  const creditIds = new Set(credits.map(creditId));
  const fullDeals = new Set(targets.flatMap((t) => (t.type === "deals" ? t.deal_ids : [])));
  const dealIds = distinct([...credits.map((c) => c.deal.id), ...fullDeals]);
  const existing = (await loadUnlockedLines(tx, dealIds)).filter((l) => inBatch(l.user_id));
  const buckets = targets
    .flatMap((t) => (t.type === "deals" ? (t.buckets ?? []) : []))
    .filter((b) => inBatch(b.user_id));
  for (const line of existing) {
    const b = oldBucket(line);
    if (b && fullDeals.has(line.deal_id) && !creditIds.has(`${line.deal_id}|${line.user_id}`)) buckets.push(b);
  }
  const touchAll = targets.some((t) => t.type !== "spiff");
  const storedBuckets = new Set(buckets.map(bucketId));
  return { credits, creditIds, fullDeals, touchAll, inBatch, existing, buckets, storedBuckets };
}

interface Rematched {
  desired: DesiredLine[];
  reasons: ReasonChange[];
  noPlan: Set<string>;
  /** Deals a credit of which now misses other rates than stored. */
  fxDeals: Set<string>;
}

/** Re-matches each credit to its plan: SPIFF lines, no-plan notes, and the buckets to recompute. */
async function rematch(
  scope: Scope,
  planCtx: PlanContext,
  spiffs: SpiffInput[],
  unsaved: Set<string>,
): Promise<Rematched> {
  const planLineOf = new Map(
    scope.existing.filter((l) => l.kind === "plan").map((l) => [`${l.deal_id}|${l.user_id}`, l]),
  );
  const out: Rematched = { desired: [], reasons: [], noPlan: new Set(), fxDeals: new Set() };
  for (const credit of scope.credits) {
    const match = matchCredit(credit, planCtx);
    const before = oldBucket(planLineOf.get(creditId(credit)));
    const after = isMatch(match) ? bucketOf(credit, match) : null;
    if (scope.touchAll || (before && bucketId(before)) !== (after && bucketId(after))) {
      if (before) scope.buckets.push(before);
      if (after) scope.buckets.push(after);
      if (!unsaved.has(creditId(credit))) for (const b of [before, after]) if (b) scope.storedBuckets.add(bucketId(b));
    }
    if (!after) out.noPlan.add(creditId(credit));
    const reason = isMatch(match) ? null : match.reason;
    const missing: FxMissing[] = !isMatch(match) && match.fx_missing ? [match.fx_missing] : [];
    out.desired.push(...spiffLinesOf(credit, match, spiffs, missing));
    const fxChanged = pairsChanged(credit.fx_missing, missing);
    if (fxChanged) out.fxDeals.add(credit.deal.id);
    if (reason !== credit.no_plan_reason || fxChanged)
      out.reasons.push({ deal_id: credit.deal.id, user_id: credit.user_id, reason, fx_missing: sortPairs(missing) });
    await turnIfDue();
  }
  return out;
}

export interface PlanOptions {
  /** Only these users' credits and buckets (a job batch). */
  users?: string[];
  /** Credits of pending deals not stored yet, planned as if they were (a deal target must name their deals). */
  unsaved?: CreditRow[];
  /** Plans to use instead of their stored current version: a plan edit's dry run (impact) computes with them. */
  plans?: Map<string, PlanInput>;
  /** Reporting histories to use instead of the stored ones: a reporting change's dry run (impact). */
  reporting?: Map<string, ReportingLineInput[]>;
  /** Only the override lines of these deals (a job's override batch); the targets' own pass is skipped. */
  overrideDeals?: string[];
  /** The plan will be written: lock the deals whose override lines it recomputes before reading them. */
  lock?: boolean;
  /** How the buckets' entries are read (default `loadBucketEntries`): an impact shares one read with its repricing. */
  entries?: EntryReader;
}

/**
 * The affected set (see recalculate.ts): credits the targets reach are re-matched; a credit's old and
 * new buckets are recomputed whole when its deal or plan changed or its bucket moved. Computes only:
 * writing is `applyPlan`'s, so a dry run is this call with its result left unwritten.
 */
export async function planRecalc(tx: Db, given: RecalcTarget[], options: PlanOptions = {}): Promise<RecalcPlan> {
  const { users, unsaved = [], plans, entries: readEntries = loadBucketEntries } = options;
  // Override lines are planned by deal, not by user: a job's user batches leave them to its deal batches.
  const overrides =
    options.overrideDeals !== undefined || users === undefined
      ? await planOverrides(tx, given, {
          unsaved,
          plans,
          reporting: options.reporting,
          dealIds: options.overrideDeals,
          lock: options.lock,
        })
      : { desired: [], existing: [], deals: new Set<string>(), fxMissing: [] };
  const targets = options.overrideDeals === undefined ? given : [];
  const scope = await scopeOf(tx, targets, users, unsaved);
  const userIds = distinct([...scope.credits.map((c) => c.user_id), ...scope.buckets.map((b) => b.user_id)]);
  const planCtx = await loadPlanContext(tx, userIds, plans);
  const span = dateSpan(scope.credits);
  const spiffs = span ? await loadSpiffs(tx, span.from, span.to) : [];
  const currencies = currenciesOf(planCtx.plans.values(), spiffs);
  await attachRates(
    tx,
    scope.credits.map((c) => c.deal),
    currencies,
  );
  const { desired, reasons, noPlan, fxDeals } = await rematch(scope, planCtx, spiffs, new Set(unsaved.map(creditId)));

  const unsavedEntries: EntryRow[] = unsaved.map((c) => ({
    ...c,
    locked_plan_id: null,
    locked_period: null,
    locked_amount: null,
  }));
  const all = uniqueBuckets(scope.buckets);
  const onlyNew = all.filter((k) => !scope.storedBuckets.has(bucketId(k)));
  const appended = await appendToBuckets(tx, onlyNew, unsavedEntries, planCtx);
  desired.push(...appended.lines);
  const keys = all.filter((k) => !appended.done.has(bucketId(k)));
  const entries = (await readEntries(tx, keys)).concat(unsavedEntries);
  await attachRates(
    tx,
    entries.map((e) => e.deal),
    currencies,
  );
  const placed = byBucket(await mapTurning(entries, (e) => land(e, planCtx)));
  for (const key of keys) {
    desired.push(...computePlaced(key, placed.get(bucketId(key)) ?? [], planCtx));
    await turnIfDue();
  }

  const known = new Set(scope.existing.map((l) => l.deal_id));
  const more = distinct(desired.map((l) => l.deal_id).filter((id) => !known.has(id)));
  const existing = scope.existing
    .concat((await loadUnlockedLines(tx, more)).filter((l) => scope.inBatch(l.user_id)))
    .concat(overrides.existing);
  desired.push(...overrides.desired);
  const diff = await diffLines(existing, desired, {
    credits: scope.creditIds,
    noPlan,
    fullDeals: scope.fullDeals,
    overrideDeals: overrides.deals,
  });
  for (const change of overrides.fxMissing) fxDeals.add(change.deal_id);
  // A stored deal's own change may have dropped a split whose pairs its `fx_missing` still names.
  for (const c of scope.credits) if (c.deal_fx_missing && c.deal_fx_missing !== "[]") fxDeals.add(c.deal.id);
  return { diff, reasons, deals: [...scope.fullDeals], overrideFx: overrides.fxMissing, fxDeals: [...fxDeals] };
}
