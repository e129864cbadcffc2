import {
  type BucketEntry,
  calculateBucket,
  calculateSpiffLines,
  conversionFor,
  type DealInput,
  type FxMissing,
  type FxRate,
  findPlan,
  type NoPlan,
  type PlanInput,
  type PlanLineResult,
  type PlanMatch,
  periodOf,
  quarterOf,
  type SpiffInput,
  type SpiffLineResult,
} from "../engine/index.js";
import {
  type BucketKey,
  bucketId,
  type CreditRow,
  type DesiredLine,
  type EntryRow,
  type PlanContext,
} from "./types.js";

/** Pure: plan matching, bucket lines and SPIFF lines over data already loaded. */

export function matchCredit(credit: CreditRow, ctx: PlanContext): PlanMatch | NoPlan {
  const assignments = ctx.assignments.get(credit.user_id) ?? [];
  const plans = assignments.flatMap((a) => {
    const plan = ctx.plans.get(a.plan_id);
    return plan ? [plan] : [];
  });
  const { close_date, currency, fx_rates } = credit.deal;
  return findPlan(credit.user_id, close_date, currency, assignments, plans, fx_rates);
}

export function isMatch(m: PlanMatch | NoPlan): m is PlanMatch {
  return "plan" in m;
}

/** The bucket a matched credit falls in. */
export function bucketOf(credit: CreditRow, match: PlanMatch): BucketKey {
  return {
    user_id: credit.user_id,
    plan_id: match.plan.id,
    period: periodOf(match.plan.period, credit.deal.close_date),
  };
}

/** SPIFF lines' period: the user's plan period containing close_date, else the calendar quarter (§4). */
export function spiffPeriod(credit: CreditRow, match: PlanMatch | NoPlan): string {
  return isMatch(match) ? periodOf(match.plan.period, credit.deal.close_date) : quarterOf(credit.deal.close_date);
}

/** The credit's SPIFF lines; a SPIFF it meets but for a usable rate adds its pair to `missing` (§15). */
export function spiffLinesOf(
  credit: CreditRow,
  match: PlanMatch | NoPlan,
  spiffs: SpiffInput[],
  missing?: FxMissing[],
): DesiredLine[] {
  const period = spiffPeriod(credit, match);
  const credits = [{ user_id: credit.user_id, percent: credit.percent, credit: credit.credit }];
  return calculateSpiffLines(credit.deal, credits, spiffs, () => period, missing).map(fromSpiffLine);
}

function fromSpiffLine(line: SpiffLineResult): DesiredLine {
  return { ...line, plan_id: null, plan_version: null, explanation: { ...line.explanation } };
}

function fromPlanLine(line: PlanLineResult): DesiredLine {
  return { ...line, spiff_id: null, explanation: { ...line.explanation } };
}

export interface Landing {
  bucket: string;
  entry: BucketEntry;
}

/**
 * Where a row lands: the bucket of its current match (pending: priced with the quota of the assignment in
 * force on its close_date, rule 4) or of its locked line (it only counts as prior), and its entry there;
 * null when nowhere. A row lands in one bucket at most. `asIfUnlocked` (a plan change's impact on locked
 * history, API.md §12): every entry is matched and priced.
 */
export function land(row: EntryRow, ctx: PlanContext, asIfUnlocked = false): Landing | null {
  if (asIfUnlocked || row.deal.status === "pending") {
    const match = matchCredit(row, ctx);
    if (!isMatch(match)) return null;
    // Repricing a locked line (asIfUnlocked) keeps the rate it was priced at: rates are not plan terms.
    const fx = row.locked_fx ?? match.fx ?? null;
    return {
      bucket: bucketId(bucketOf(row, match)),
      entry: { deal: row.deal, credit: row.credit, locked: false, quota: match.quota, fx },
    };
  }
  if (row.locked_plan_id === null || row.locked_period === null) return null;
  return {
    bucket: bucketId({ user_id: row.user_id, plan_id: row.locked_plan_id, period: row.locked_period }),
    entry: {
      deal: row.deal,
      credit: row.credit,
      locked: true,
      lockedAmount: row.locked_amount ?? "0",
      fx: lockedConversion(row, ctx.plans.get(row.locked_plan_id)),
    },
  };
}

/**
 * The entries by the bucket each landed in (bucketId), in the rows' order. Each row is matched once
 * (`land`), where asking every bucket of a user about every row of theirs had matched it once per bucket:
 * a plan's impact at 2,000,000 deals, 8 quarters, 8 times the matching.
 */
export function byBucket(landings: Iterable<Landing | null>): Map<string, BucketEntry[]> {
  const placed = new Map<string, BucketEntry[]>();
  for (const landed of landings) {
    if (!landed) continue;
    const list = placed.get(landed.bucket);
    if (list) list.push(landed.entry);
    else placed.set(landed.bucket, [landed.entry]);
  }
  return placed;
}

/** `byBucket` of every row's landing, at once (a few rows; long lists map `land` letting the loop turn). */
export function placeEntries(rows: EntryRow[], ctx: PlanContext, asIfUnlocked = false): Map<string, BucketEntry[]> {
  return byBucket(rows.map((r) => land(r, ctx, asIfUnlocked)));
}

/**
 * A locked line's credit counts toward attainment as it was converted when it was priced (§15: locked
 * lines never move, nor does what they count); one priced before it converted, at today's usable rate.
 */
function lockedConversion(row: EntryRow, plan: PlanInput | undefined): FxRate | null {
  if (row.locked_fx) return row.locked_fx;
  if (!plan || plan.currency === row.deal.currency) return null;
  return conversionFor(row.deal, plan.currency, plan.fx_max_age_days).fx ?? null;
}

/**
 * Plan lines of every pending credit in the bucket, given the bucket user's entries in its range; with
 * `asIfUnlocked`, of every credit, as if no line were locked.
 */
export function computeBucket(key: BucketKey, rows: EntryRow[], ctx: PlanContext, asIfUnlocked = false): DesiredLine[] {
  return computePlaced(key, placeEntries(rows, ctx, asIfUnlocked).get(bucketId(key)) ?? [], ctx);
}

/** Plan lines of the bucket from its entries as `placeEntries` placed them. */
export function computePlaced(key: BucketKey, entries: BucketEntry[], ctx: PlanContext): DesiredLine[] {
  const plan = ctx.plans.get(key.plan_id);
  if (!plan) return [];
  if (!entries.some((e) => !e.locked)) return [];
  const lines = calculateBucket({ plan, quota: plan.quota, period: key.period, userId: key.user_id, entries });
  return lines.map(fromPlanLine);
}

/** Stands for every deal already in a bucket: before any real deal in §5 order (close_date "0000-01-01"). */
const BEFORE_ALL: DealInput = {
  id: "",
  arr_amount: "0",
  currency: "",
  deal_type: "",
  close_date: "0000-01-01",
  created_at: "",
  splits: [],
};

/**
 * Plan lines of `entries`, every one after all the bucket's stored deals, from what those deals add up to:
 * their credit (the prior attainment) and their stored amounts (the cap used), as one locked entry first.
 */
export function computeAppended(
  key: BucketKey,
  entries: BucketEntry[],
  ctx: PlanContext,
  before: { credit: string; used: string },
): DesiredLine[] {
  const plan = ctx.plans.get(key.plan_id);
  if (!plan || entries.length === 0) return [];
  const stored: BucketEntry = { deal: BEFORE_ALL, credit: before.credit, locked: true, lockedAmount: before.used };
  const input = { plan, quota: plan.quota, period: key.period, userId: key.user_id, entries: [stored, ...entries] };
  return calculateBucket(input).map(fromPlanLine);
}

/** Distinct buckets, in a stable order. */
export function uniqueBuckets(buckets: Iterable<BucketKey>): BucketKey[] {
  const seen = new Map<string, BucketKey>();
  for (const b of buckets) seen.set(bucketId(b), b);
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, b]) => b);
}
