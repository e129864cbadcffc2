import type { ColumnType, Generated, GeneratedAlways } from "kysely";
import type {
  CLAWBACK_PRORATIONS,
  COMMISSION_KINDS,
  COMMISSION_STATUSES,
  DealStatus,
  DealType,
  DISPUTE_AMOUNT_SCOPES,
  DISPUTE_OUTCOMES,
  DISPUTE_REASONS,
  DISPUTE_STATUSES,
  PLAN_KINDS,
  PLAN_PERIODS,
  PLAN_STATUSES,
} from "../enums.js";
import type { DateOnly, Decimal, Json, OneOf, PgColumns, Timestamp } from "./column-types.js";

/** Row types of comp plans, SPIFFs, deals, commission lines and disputes (migrations 002, 006, 007, 009). */

export interface PlanTermsColumns {
  currency: string;
  period: OneOf<typeof PLAN_PERIODS>;
  quota: Decimal | null;
  base_rate: Decimal | null;
  tiers: Json<{ from_attainment: string; rate: string }[]>;
  deal_type_multipliers: Json<Record<string, string>>;
  min_deal_amount: Decimal | null;
  cap_per_period: Decimal | null;
  effective_from: DateOnly;
  effective_to: DateOnly | null;
  /** API.md §14 (migration 015): the clawback policy of these terms; percent an exact decimal string. */
  clawback: Json<ClawbackColumn> | null;
  /** API.md §16 (migration 016): an override plan's rate per depth below the manager; null on standard plans. */
  override_levels: Json<OverrideLevelColumn[]> | null;
  /** API.md §15 (migration 018): the oldest exchange rate (in days before close_date) these terms accept. */
  fx_max_age_days: ColumnType<number, number | undefined, number>;
}

export interface OverrideLevelColumn {
  depth: number;
  rate: string;
}

export interface ClawbackColumn {
  window_days: number;
  percent: string;
  proration: OneOf<typeof CLAWBACK_PRORATIONS>;
}

export interface CompPlansTable extends PlanTermsColumns {
  id: string;
  kind: Generated<OneOf<typeof PLAN_KINDS>>;
  name: string;
  description: string | null;
  status: OneOf<typeof PLAN_STATUSES>;
  version: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CompPlanVersionsTable extends PlanTermsColumns {
  plan_id: string;
  version: number;
  created_at: Timestamp;
}

export interface PlanAssignmentsTable {
  id: string;
  plan_id: string;
  user_id: string;
  effective_from: DateOnly;
  effective_to: DateOnly | null;
  quota_override: Decimal | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SpiffsTable {
  id: string;
  name: string;
  description: string | null;
  currency: string;
  starts_on: DateOnly;
  ends_on: DateOnly;
  criteria: Json<{ min_arr_amount: string | null; deal_types: string[] | null; user_ids: string[] | null }>;
  payout: Json<{ type: "flat"; amount: string } | { type: "rate"; rate: string }>;
  active: boolean;
  /** API.md §15 (migration 018). */
  fx_max_age_days: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** API.md §15 (migration 018): one day's rates for one base, exact decimal strings by code. */
export interface ExchangeRateSetsTable {
  date: DateOnly;
  base: string;
  rates: Json<Record<string, string>>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DealsTable {
  id: string;
  external_id: string | null;
  opportunity_name: string;
  arr_amount: Decimal;
  currency: string;
  deal_type: DealType;
  close_date: DateOnly;
  owner_id: string;
  splits_explicit: boolean;
  status: Generated<DealStatus>;
  total_commission: ColumnType<string, string | number | undefined, string | number>;
  rejection_reason: string | null;
  approved_at: Timestamp | null;
  paid_at: Timestamp | null;
  /** API.md §14 (migration 015): the contract's span, both or neither. */
  contract_start: DateOnly | null;
  contract_end: DateOnly | null;
  cancelled_at: Timestamp | null;
  cancel_reason: string | null;
  cancel_effective_date: DateOnly | null;
  /** Σ of the deal's refunds. */
  refunded_amount: ColumnType<string, string | number | undefined, string | number>;
  /** API.md §15 (migration 019): the pairs with no usable rate, as the API writes them (JSON text); kept by the recalculation. */
  fx_missing: string;
  /** The pairs the deal's override lines miss (null: none); part of `fx_missing`. */
  override_fx_missing: Json<FxPair[]> | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A currency pair a deal has no usable rate for (API.md §15). */
export interface FxPair {
  from: string;
  to: string;
  close_date: string;
}

export interface DealSplitsTable {
  deal_id: string;
  user_id: string;
  position: number;
  percent: Decimal;
  close_date: DateOnly;
  no_plan_reason: string | null;
  /** The pairs this credit's plan and SPIFF lines miss (migration 019; null: none). */
  fx_missing: Json<FxPair[]> | null;
}

export interface CommissionLinesTable {
  id: string;
  deal_id: string;
  user_id: string;
  plan_id: string | null;
  plan_version: number | null;
  spiff_id: string | null;
  kind: OneOf<typeof COMMISSION_KINDS>;
  period: string;
  amount: Decimal;
  status: OneOf<typeof COMMISSION_STATUSES>;
  locked: Generated<boolean>;
  explanation: Json<Record<string, unknown>>;
  /** Set by recalculations (migration 009); NULL on adjustment lines and older lines. */
  explanation_digest: Generated<string | null>;
  /** A retroactive adjustment's original locked line (migration 012); NULL on every other line. */
  adjusts_line_id: Generated<string | null>;
  /** The deal's currency, filled by a trigger on insert (migration 015). */
  currency: Generated<string>;
  /** The one draft or finalized payout run holding the line (API.md §13). */
  payout_run_id: Generated<string | null>;
  /** The refund that wrote a clawback line; null for a cancellation's and every other line. */
  refund_id: Generated<string | null>;
  /** A draw line's draw (migration 020, API.md §18; its deal_id is null); null on every other line. */
  draw_id: Generated<string | null>;
  /**
   * The explanation's `credit` and `quota` as text (`explanation->>'credit'`), generated from it by
   * PostgreSQL (migration 024): the team page's figures read them from the (user_id, period) index alone.
   */
  credit: GeneratedAlways<string | null>;
  quota: GeneratedAlways<string | null>;
  calculated_at: Timestamp;
  created_at: Timestamp;
}

export interface DisputesTable {
  id: string;
  deal_id: string;
  opened_by_key_id: string | null;
  reason: OneOf<typeof DISPUTE_REASONS>;
  description: string | null;
  expected_amount: Decimal | null;
  status: OneOf<typeof DISPUTE_STATUSES>;
  outcome: OneOf<typeof DISPUTE_OUTCOMES> | null;
  resolution_note: string | null;
  resolved_amount: Decimal | null;
  created_at: Timestamp;
  resolved_at: Timestamp | null;
  amount_scope: OneOf<typeof DISPUTE_AMOUNT_SCOPES>;
  scope_user_id: string | null;
}

/** Deltas of deals per status (007_deal_counts.sql): sum them for a total. */
export interface DealCountsTable {
  status: DealStatus;
  /** bigint: a string from both drivers. */
  n: string | number;
}

/** Every deals column with its type: the one column list of the table (inserts, updates, the list query). */
export const DEAL_COLUMNS: PgColumns<DealsTable> = {
  id: "text",
  external_id: "text",
  opportunity_name: "text",
  arr_amount: "numeric",
  currency: "text",
  deal_type: "text",
  close_date: "date",
  owner_id: "text",
  splits_explicit: "boolean",
  status: "text",
  total_commission: "numeric",
  rejection_reason: "text",
  approved_at: "timestamptz",
  paid_at: "timestamptz",
  contract_start: "date",
  contract_end: "date",
  cancelled_at: "timestamptz",
  cancel_reason: "text",
  cancel_effective_date: "date",
  refunded_amount: "numeric",
  fx_missing: "text",
  override_fx_missing: "jsonb",
  created_at: "timestamptz",
  updated_at: "timestamptz",
};

export const DEAL_SPLIT_COLUMNS: PgColumns<DealSplitsTable> = {
  deal_id: "text",
  user_id: "text",
  position: "smallint",
  percent: "numeric",
  close_date: "date",
  no_plan_reason: "text",
  fx_missing: "jsonb",
};
