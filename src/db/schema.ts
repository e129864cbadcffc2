import type { ColumnType, Generated } from "kysely";

/** Row types of every table, as the drivers return them (numeric and bigint as strings, dates as strings). */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T = unknown> = ColumnType<T, string, string>;

export interface ApiKeysTable {
  id: string;
  name: string;
  scope: "read" | "write" | "admin";
  environment: string;
  key_hash: string;
  key_prefix: string;
  mcp_access: Generated<"read" | "write" | "admin">;
  replaces: string | null;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface UsersTable {
  id: string;
  external_id: string | null;
  name: string;
  email: string;
  role: "rep" | "manager" | "admin" | "finance";
  manager_id: string | null;
  active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AuditEventsTable {
  id: string;
  actor_type: "api_key" | "owner";
  actor_id: string | null;
  actor_name: string;
  action: string;
  resource: string;
  resource_id: string;
  before: Json | null;
  after: Json | null;
  request_id: string | null;
  created_at: Timestamp;
}

export interface RequestLogsTable {
  id: string;
  key_id: string | null;
  method: string;
  path: string;
  status: number;
  duration_ms: ColumnType<string, string | number, string | number>;
  client_ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
}

export interface JobsTable {
  id: string;
  kind: string;
  payload: Json<Record<string, unknown>>;
  status: Generated<"queued" | "running" | "succeeded" | "failed">;
  run_at: Timestamp;
  locked_until: Timestamp | null;
  claimed_by: string | null;
  attempts: Generated<number>;
  total: number | null;
  done: Generated<number>;
  error: string | null;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

export interface EventsTable {
  id: string;
  type: string;
  data: Json<Record<string, unknown>>;
  created_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  hits: ColumnType<string[], number[], number[]>;
  allowed: boolean;
  expires_at: Timestamp;
}

export interface IdempotencyKeysTable {
  key_id: string;
  idem_key: string;
  fingerprint: string;
  state: "done" | "secret";
  status: number | null;
  content_type: string | null;
  body: string | null;
  created_at: Timestamp;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: Timestamp;
}

// Commissions (migration 002). Money, rates and percents are numeric → exact strings.
type Decimal = ColumnType<string, string | number, string | number>;
type DateOnly = ColumnType<string, string, string>;

export interface PlanTermsColumns {
  currency: string;
  period: "month" | "quarter" | "year";
  quota: Decimal | null;
  base_rate: Decimal | null;
  tiers: Json<{ from_attainment: string; rate: string }[]>;
  deal_type_multipliers: Json<Record<string, string>>;
  min_deal_amount: Decimal | null;
  cap_per_period: Decimal | null;
  effective_from: DateOnly;
  effective_to: DateOnly | null;
}

export interface CompPlansTable extends PlanTermsColumns {
  id: string;
  name: string;
  description: string | null;
  status: "draft" | "active" | "archived";
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
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type DealStatus = "pending" | "approved" | "rejected" | "disputed" | "paid";

export interface DealsTable {
  id: string;
  external_id: string | null;
  opportunity_name: string;
  arr_amount: Decimal;
  currency: string;
  deal_type: "new_business" | "expansion" | "renewal" | "other";
  close_date: DateOnly;
  owner_id: string;
  splits_explicit: boolean;
  status: Generated<DealStatus>;
  total_commission: ColumnType<string, string | number | undefined, string | number>;
  rejection_reason: string | null;
  approved_at: Timestamp | null;
  paid_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DealSplitsTable {
  deal_id: string;
  user_id: string;
  position: number;
  percent: Decimal;
  close_date: DateOnly;
  no_plan_reason: string | null;
}

export interface CommissionLinesTable {
  id: string;
  deal_id: string;
  user_id: string;
  plan_id: string | null;
  plan_version: number | null;
  spiff_id: string | null;
  kind: "plan" | "spiff" | "adjustment";
  period: string;
  amount: Decimal;
  status: "pending" | "approved" | "paid" | "void";
  locked: Generated<boolean>;
  explanation: Json<Record<string, unknown>>;
  /** Set by recalculations (migration 009); NULL on adjustment lines and older lines. */
  explanation_digest: Generated<string | null>;
  calculated_at: Timestamp;
  created_at: Timestamp;
}

// Disputes (migration 006).
export interface DisputesTable {
  id: string;
  deal_id: string;
  opened_by_key_id: string | null;
  reason: "wrong_amount" | "wrong_deal_type" | "missing_tier" | "wrong_attribution" | "spiff_missing" | "other";
  description: string | null;
  expected_amount: Decimal | null;
  status: "open" | "resolved";
  outcome: "approved" | "partially_approved" | "denied" | null;
  resolution_note: string | null;
  resolved_amount: Decimal | null;
  created_at: Timestamp;
  resolved_at: Timestamp | null;
}

// Webhooks (migration 003).
export interface WebhookSubscriptionsTable {
  id: string;
  url: string;
  description: string | null;
  events: Json<string[]>;
  status: "active" | "disabled";
  disabled_reason: string | null;
  secret_encrypted: string;
  secret_hint: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: Timestamp | null;
  failing_since: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  status: Generated<"pending" | "succeeded" | "failed">;
  attempt_count: Generated<number>;
  final_attempt: Generated<number>;
  next_attempt_at: Timestamp | null;
  locked_until: Timestamp | null;
  claimed_by: string | null;
  created_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<string>;
  delivery_id: string;
  attempted_at: Timestamp;
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
}

/** Deltas of deals per status (007_deal_counts.sql): sum them for a total. */
export interface DealCountsTable {
  status: DealStatus;
  /** bigint: a string from both drivers. */
  n: string | number;
}

/** Bumped by a trigger whenever an API key changes in a way authentication must see. */
export interface ApiKeyVersionTable {
  singleton: boolean;
  version: string;
}

export interface DB {
  api_keys: ApiKeysTable;
  api_key_version: ApiKeyVersionTable;
  deal_counts: DealCountsTable;
  users: UsersTable;
  audit_events: AuditEventsTable;
  request_logs: RequestLogsTable;
  jobs: JobsTable;
  events: EventsTable;
  schema_migrations: SchemaMigrationsTable;
  rate_limits: RateLimitsTable;
  idempotency_keys: IdempotencyKeysTable;
  comp_plans: CompPlansTable;
  comp_plan_versions: CompPlanVersionsTable;
  plan_assignments: PlanAssignmentsTable;
  spiffs: SpiffsTable;
  deals: DealsTable;
  deal_splits: DealSplitsTable;
  commission_lines: CommissionLinesTable;
  disputes: DisputesTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
