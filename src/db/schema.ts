import type { Kysely } from "kysely";
import type {
  AccountingAssetsTable,
  AccountingEventsTable,
  AccountingPostingsTable,
  AccountingSettingsTable,
  DealRefundsTable,
  DrawEntriesTable,
  DrawPeriodsTable,
  DrawsTable,
  PayoutRunPayeesTable,
  PayoutRunsTable,
} from "./tables-pay.js";
import type {
  ApiKeysTable,
  ApiKeyVersionTable,
  AuditEventsTable,
  EventsTable,
  IdempotencyKeysTable,
  InvitationsTable,
  JobsTable,
  RateLimitsTable,
  ReportingLinesTable,
  RequestLogsTable,
  SchemaMigrationsTable,
  SessionsTable,
  UsersTable,
} from "./tables-platform.js";
import type {
  CommissionLinesTable,
  CompPlansTable,
  CompPlanVersionsTable,
  DealCountsTable,
  DealSplitsTable,
  DealsTable,
  DisputesTable,
  ExchangeRateSetsTable,
  PlanAssignmentsTable,
  SpiffsTable,
} from "./tables-sales.js";
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookSubscriptionsTable } from "./tables-webhooks.js";

export type * from "./tables-pay.js";
export type * from "./tables-platform.js";
export type * from "./tables-sales.js";
export type * from "./tables-webhooks.js";

/** Every table, by name: the database as Kysely types it. */
export interface DB {
  api_keys: ApiKeysTable;
  api_key_version: ApiKeyVersionTable;
  deal_counts: DealCountsTable;
  users: UsersTable;
  reporting_lines: ReportingLinesTable;
  invitations: InvitationsTable;
  sessions: SessionsTable;
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
  exchange_rate_sets: ExchangeRateSetsTable;
  deals: DealsTable;
  deal_splits: DealSplitsTable;
  commission_lines: CommissionLinesTable;
  disputes: DisputesTable;
  payout_runs: PayoutRunsTable;
  payout_run_payees: PayoutRunPayeesTable;
  deal_refunds: DealRefundsTable;
  draws: DrawsTable;
  draw_periods: DrawPeriodsTable;
  draw_entries: DrawEntriesTable;
  accounting_settings: AccountingSettingsTable;
  accounting_assets: AccountingAssetsTable;
  accounting_events: AccountingEventsTable;
  accounting_postings: AccountingPostingsTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

/** Any handle on the database: the pool, or a transaction (a `Transaction<DB>` is a `Kysely<DB>`). */
export type Db = Kysely<DB>;
