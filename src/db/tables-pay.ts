import type { Generated } from "kysely";
import type { PAYOUT_RUN_STATUSES } from "../enums.js";
import type { DateOnly, Decimal, Json, OneOf, PgColumns, Timestamp } from "./column-types.js";

/** Row types of the pay cycle (migration 015): payout runs and their payees, refunds. */

export interface PayoutRunsTable {
  id: string;
  /** Creation order (an identity column): bigint, a string from both drivers. */
  seq: Generated<string>;
  status: OneOf<typeof PAYOUT_RUN_STATUSES>;
  through: DateOnly;
  pay_date: DateOnly;
  currency: string | null;
  user_ids: Json<string[]> | null;
  max_recovery_percent: Decimal;
  period_start: DateOnly;
  period_end: DateOnly;
  created_at: Timestamp;
  created_by: string;
  finalized_at: Timestamp | null;
  finalized_by: string | null;
  cancelled_at: Timestamp | null;
  cancelled_by: string | null;
}

export interface PayoutRunPayeesTable {
  run_id: string;
  user_id: string;
  currency: string;
  name: string;
  email: string;
  external_id: string | null;
  payroll_id: string | null;
  gross_plan: Decimal;
  gross_spiff: Decimal;
  gross_override: Decimal;
  gross_adjustment: Decimal;
  gross_clawback: Decimal;
  gross_draw_advance: Decimal;
  gross_draw_recovery: Decimal;
  line_count: number;
  lines_total: Decimal;
  positive_total: Decimal;
  deficit_brought_forward: Decimal;
  recovery_cap: Decimal;
  recovered: Decimal;
  net_pay: Decimal;
  deficit_carried_forward: Decimal;
}

/** The payees' column types, for rows written as JSON (db/sql.ts insertRecords). */
export const PAYOUT_RUN_PAYEE_COLUMNS: PgColumns<PayoutRunPayeesTable> = {
  run_id: "text",
  user_id: "text",
  currency: "text",
  name: "text",
  email: "text",
  external_id: "text",
  payroll_id: "text",
  gross_plan: "numeric",
  gross_spiff: "numeric",
  gross_override: "numeric",
  gross_adjustment: "numeric",
  gross_clawback: "numeric",
  gross_draw_advance: "numeric",
  gross_draw_recovery: "numeric",
  line_count: "integer",
  lines_total: "numeric",
  positive_total: "numeric",
  deficit_brought_forward: "numeric",
  recovery_cap: "numeric",
  recovered: "numeric",
  net_pay: "numeric",
  deficit_carried_forward: "numeric",
};

export interface DealRefundsTable {
  id: string;
  deal_id: string;
  amount: Decimal;
  effective_date: DateOnly;
  reason: string | null;
  clawback_line_ids: Json<string[]>;
  created_at: Timestamp;
}

/** Draws (migration 020, API.md §18). */
export interface DrawsTable {
  id: string;
  user_id: string;
  kind: "recoverable" | "non_recoverable";
  amount: Decimal;
  currency: string;
  period: "month" | "quarter";
  starts_on: DateOnly;
  ends_on: DateOnly;
  recovery_starts_on: DateOnly | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A draw's period settled by a (draft or finalized) payout run. */
export interface DrawPeriodsTable {
  draw_id: string;
  period: string;
  ends_on: DateOnly;
  payout_run_id: string;
  earned: Decimal;
  advance: Decimal;
}

/** What moved a draw's balance: advance (+), recovery (−), forgiveness (−). */
export interface DrawEntriesTable {
  id: string;
  draw_id: string;
  type: "advance" | "recovery" | "forgiveness";
  amount: Decimal;
  line_id: string | null;
  payout_run_id: string | null;
  reason: string | null;
  created_at: Timestamp;
}

/** API.md §17 (migration 021): the one row of accounting settings. */
export interface AccountingSettingsTable {
  id: Generated<boolean>;
  settings: Json<Record<string, unknown>>;
  assets_built_at: Timestamp | null;
  updated_at: Timestamp;
}

/** A capitalizable line's asset; months are integers (year × 12 + month − 1). */
export interface AccountingAssetsTable {
  line_id: string;
  deal_id: string;
  user_id: string;
  plan_id: string | null;
  kind: "plan" | "spiff" | "override";
  currency: string;
  amount: Decimal;
  treatment: "capitalized" | "expensed";
  months: number;
  start_month: number;
  approval_month: number;
  approved_on: DateOnly;
  last_month: number;
  created_at: Timestamp;
}

export interface AccountingEventsTable {
  line_id: string;
  seq: number;
  type: "adjustment" | "clawback" | "impairment";
  month: number;
  booked_on: DateOnly;
  amount: Decimal | null;
  source_line_id: string | null;
}

export interface AccountingPostingsTable {
  line_id: string;
  currency: string;
  type: "addition" | "adjustment" | "amortization" | "clawback" | "impairment" | "expense" | "clawback_excess";
  first_month: number;
  last_month: number;
  booked_on: DateOnly | null;
  amount: Decimal;
  source_line_id: string | null;
}
