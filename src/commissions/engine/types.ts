// Plain data the commission engine reads and returns. Money, rates and percents are decimal strings.

export type PeriodKind = "month" | "quarter" | "year";

export interface Tier {
  from_attainment: string;
  rate: string;
}

/** API.md §16: an override plan's rate for the credits exactly `depth` levels below the manager. */
export interface OverrideLevel {
  depth: number;
  rate: string;
}

/**
 * API.md §15: 1 unit of `from` = num/den units of `to`, exact (num, den > 0, lowest terms as the rate
 * lookup gives them), from the rates of `rate_date` under `base`. The engine never looks rates up.
 */
export interface FxRate {
  from: string;
  to: string;
  num: bigint;
  den: bigint;
  rate_date: string;
  base: string;
}

/** A pair a deal needs and has no usable rate for: one item of the deal's `fx_missing`. */
export interface FxMissing {
  from: string;
  to: string;
  close_date: string;
}

/** A converted line's `fx` block; `rate` and `credit` are "n/d" when their decimals do not terminate. */
export interface FxExplanation {
  from: string;
  to: string;
  rate: string;
  rate_date: string;
  base: string;
  credit_in_deal_currency: string;
  credit: string;
}

export interface PlanInput {
  id: string;
  version: number;
  /** A standard plan (absent: standard) pays the credited user; an override plan pays a manager on the credits below (§16). */
  kind?: "standard" | "override";
  status: "draft" | "active" | "archived";
  currency: string;
  period: PeriodKind;
  quota: string | null;
  base_rate: string | null;
  tiers: Tier[] | null;
  deal_type_multipliers: Record<string, string>;
  min_deal_amount: string | null;
  cap_per_period: string | null;
  /** Override plans only: by depth, ascending. */
  override_levels?: OverrideLevel[] | null;
  effective_from: string;
  effective_to: string | null;
  /** §15: a rate older than this many days before close_date is not usable (absent: 7). */
  fx_max_age_days?: number;
}

/** A span of a user's reporting line (inclusive; `effective_to` null = open; `manager_id` null = none). */
export interface ReportingLineInput {
  user_id: string;
  manager_id: string | null;
  effective_from: string;
  effective_to: string | null;
}

export interface AssignmentInput {
  id: string;
  plan_id: string;
  user_id: string;
  effective_from: string;
  effective_to: string | null;
  quota_override: string | null;
}

export interface SplitInput {
  user_id: string;
  percent: string;
}

export interface DealInput {
  id: string;
  arr_amount: string;
  currency: string;
  deal_type: string;
  /** YYYY-MM-DD */
  close_date: string;
  /** RFC 3339 UTC with milliseconds */
  created_at: string;
  splits: SplitInput[];
  /**
   * §15: per currency other than the deal's that its plans, SPIFFs or override plans are in, the rate of
   * the latest date on or before close_date (any age: the engine applies each plan's and SPIFF's
   * `fx_max_age_days`). Absent: conversion is off, and anything in another currency earns nothing
   * ("currency mismatch"), as before §15.
   */
  fx_rates?: FxRate[];
}

export type SpiffPayout = { type: "flat"; amount: string } | { type: "rate"; rate: string };

export interface SpiffInput {
  id: string;
  name: string;
  currency: string;
  starts_on: string;
  ends_on: string;
  active: boolean;
  criteria: { min_arr_amount?: string | null; deal_types?: string[] | null; user_ids?: string[] | null };
  payout: SpiffPayout;
  /** §15: as the plan's (absent: 7). */
  fx_max_age_days?: number;
}

export interface Credit {
  user_id: string;
  percent: string;
  /** arr_amount × percent / 100, exact (never rounded) */
  credit: string;
}

export interface PlanMatch {
  plan: PlanInput;
  assignment: AssignmentInput;
  quota: string | null;
  /** The conversion of the deal's credit into the plan's currency; null when they share one. */
  fx?: FxRate | null;
}

export interface NoPlan {
  reason: string;
  /** Set when the only reason is a missing rate: the pair for the deal's `fx_missing`. */
  fx_missing?: FxMissing;
}

export interface BucketEntry {
  deal: DealInput;
  credit: string;
  locked: boolean;
  /** The stored (rounded) amount of a locked plan line; it uses its share of the cap first. */
  lockedAmount?: string;
  /**
   * Rule 4: the quota of the assignment in force on this deal's close_date (two assignments of one plan
   * may share a period with different overrides). Absent: the bucket's `quota`.
   */
  quota?: string | null;
  /**
   * §15: the conversion of `credit` (and the deal's arr_amount) into the plan's currency (PlanMatch.fx;
   * for a locked entry, engine `conversionFor`). Absent or null: the deal is in the plan's currency.
   */
  fx?: FxRate | null;
}

export interface BucketInput {
  plan: PlanInput;
  /** The quota of entries that carry none of their own. */
  quota: string | null;
  period: string;
  userId: string;
  entries: BucketEntry[];
}

export interface BandExplanation {
  from: string;
  to: string | null;
  rate: string;
  amount: string;
  commission: string;
}

export interface CapExplanation {
  limit: string;
  before: string;
  applied: boolean;
}

export interface PlanLineExplanation {
  summary: string;
  plan_id: string;
  plan_version: number;
  period: string;
  quota: string | null;
  credit: string;
  prior_attainment: string;
  bands: BandExplanation[];
  multiplier: string;
  cap: CapExplanation | null;
  unrounded: string;
  /** Present only on lines zeroed because the deal's arr_amount is below the plan minimum. */
  min_deal_amount?: string;
  /** Present only on converted lines; `credit`, `prior_attainment`, bands and `unrounded` are then in the plan's currency. */
  fx?: FxExplanation;
  amount: number;
}

export interface PlanLineResult {
  deal_id: string;
  user_id: string;
  plan_id: string;
  plan_version: number;
  period: string;
  kind: "plan";
  amount: string;
  /** The plan's (API.md §15). */
  currency: string;
  explanation: PlanLineExplanation;
}

export interface SpiffLineExplanation {
  summary: string;
  spiff_id: string;
  spiff_name: string;
  criteria_met: string[];
  payout: SpiffPayout;
  credit: string;
  percent: string;
  period: string;
  unrounded: string;
  /** Present only on converted lines; `credit` and `unrounded` are then in the SPIFF's currency. */
  fx?: FxExplanation;
  amount: number;
}

export interface SpiffLineResult {
  deal_id: string;
  user_id: string;
  spiff_id: string;
  period: string;
  kind: "spiff";
  amount: string;
  /** The SPIFF's (API.md §15). */
  currency: string;
  explanation: SpiffLineExplanation;
}

export interface NoPlanExplanation {
  summary: string;
  reason: string;
}
