import type { Db } from "../../db/schema.js";
import type { AssignmentInput, DealInput, FxMissing, FxRate, PlanInput, SpiffInput } from "../engine/index.js";

/** One (user, plan, period) bucket of §5: plan lines inside it depend on each other. */
export interface BucketKey {
  user_id: string;
  plan_id: string;
  period: string;
}

/** Inclusive date range; `to` null = open-ended. */
export interface DateRange {
  from: string;
  to: string | null;
}

/**
 * What changed, in terms the job can re-resolve later from the database (so a job payload stays small):
 * - `deals`: these deals' own data changed (plus `buckets` they left, captured before the change);
 * - `user`: a user's assignments changed over these date ranges;
 * - `plan`: a plan's terms, dates or status changed;
 * - `spiff`: a SPIFF changed over these windows (only SPIFF lines move);
 * - `overrides`: who reports to whom changed for these users (a user and everyone ever below them) over
 *   these close-date ranges: only override lines move (API.md §16);
 * - `rates`: exchange rates changed for deals closing in these ranges: pending deals that convert, or
 *   could, are redone (API.md §15).
 */
export type RecalcTarget =
  | { type: "deals"; deal_ids: string[]; buckets?: BucketKey[] }
  | { type: "user"; user_id: string; ranges: DateRange[] }
  | { type: "plan"; plan_id: string }
  | { type: "spiff"; ranges: DateRange[] }
  | { type: "overrides"; user_ids: string[]; ranges: DateRange[] }
  | { type: "rates"; ranges: DateRange[] };

export type EngineDeal = DealInput & { status: string };

/** A pending deal's credit to one user: the unit whose plan match, SPIFF lines and no-plan note are redone. */
export interface CreditRow {
  deal: EngineDeal;
  user_id: string;
  percent: string;
  credit: string;
  no_plan_reason: string | null;
  /** As stored: the pairs its plan and SPIFF lines found no usable rate for (null: none). */
  fx_missing?: FxMissing[] | null;
  /** As stored: the deal's `fx_missing` text (absent: not read). */
  deal_fx_missing?: string;
}

/** A non-rejected deal's credit inside a bucket's date range, with the user's locked plan line if any. */
export interface EntryRow extends CreditRow {
  locked_plan_id: string | null;
  locked_period: string | null;
  locked_amount: string | null;
  /** The conversion the locked line was priced with (from its explanation; null: none): it never moves. */
  locked_fx?: FxRate | null;
}

/** Reads the entries of buckets: `loadBucketEntries`, or one read shared by several computations (`sharedEntryReads`). */
export type EntryReader = (db: Db, buckets: BucketKey[]) => Promise<EntryRow[]>;

/** Everything needed to find the plan for a user's credits: their assignments and those plans. */
export interface PlanContext {
  assignments: Map<string, AssignmentInput[]>;
  plans: Map<string, PlanInput>;
}

export interface ExistingLine {
  id: string;
  deal_id: string;
  user_id: string;
  kind: "plan" | "spiff" | "override";
  plan_id: string | null;
  plan_version: number | null;
  spiff_id: string | null;
  period: string;
  amount: string;
  currency: string;
  status: "pending" | "void";
  /** Of the explanation stored (see write.ts `explanationDigest`); null when never recorded. */
  explanation_digest: string | null;
}

/** A line as the engine wants it stored. */
export interface DesiredLine {
  deal_id: string;
  user_id: string;
  kind: "plan" | "spiff" | "override";
  plan_id: string | null;
  plan_version: number | null;
  spiff_id: string | null;
  period: string;
  amount: string;
  /** The plan's, SPIFF's or override plan's (API.md §15). */
  currency: string;
  explanation: Record<string, unknown>;
}

export type { SpiffInput };

/** A locked plan line as it stands: its amount plus the retroactive corrections already made to it. */
export interface LockedLine {
  id: string;
  deal_id: string;
  user_id: string;
  period: string;
  status: string;
  plan_version: number | null;
  /** Stored amount + its retroactive corrections + the deal's dispute resolutions for the user: what the rep is owed for it today. */
  amount: string;
}

export interface LockedRepricing {
  line: LockedLine;
  /** Its amount under the new terms (cents). */
  after: string;
  explanation: Record<string, unknown>;
}

export function lineKey(line: { deal_id: string; user_id: string; kind: string; spiff_id: string | null }): string {
  if (line.kind === "spiff") return `${line.deal_id}|${line.user_id}|spiff|${line.spiff_id}`;
  return `${line.deal_id}|${line.user_id}|${line.kind}`;
}

export function bucketId(b: BucketKey): string {
  return `${b.user_id}|${b.plan_id}|${b.period}`;
}

export function creditId(c: { deal: { id: string }; user_id: string }): string {
  return `${c.deal.id}|${c.user_id}`;
}
