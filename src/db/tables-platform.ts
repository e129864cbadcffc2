import type { ColumnType, Generated } from "kysely";
import type { ACTOR_TYPES, JOB_STATUSES, ROLES, Scope } from "../enums.js";
import type { DateOnly, Json, OneOf, PgColumns, Timestamp } from "./column-types.js";

/** Row types of the platform's tables: keys, users, audit, request logs, jobs, the outbox, limits. */

export interface ApiKeysTable {
  id: string;
  name: string;
  scope: Scope;
  environment: string;
  key_hash: string;
  key_prefix: string;
  mcp_access: Generated<Scope>;
  replaces: string | null;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

/** Bumped by a trigger whenever an API key changes in a way authentication must see. */
export interface ApiKeyVersionTable {
  singleton: boolean;
  version: string;
}

export interface UsersTable {
  id: string;
  external_id: string | null;
  name: string;
  email: string;
  role: OneOf<typeof ROLES>;
  manager_id: string | null;
  active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** argon2id PHC string; null until the person sets a password (invitation) — never exposed. */
  password_hash: string | null;
  password_changed_at: Timestamp | null;
  /** The person's id in the payroll system (API.md §13), unique when set. */
  payroll_id: Generated<string | null>;
}

/** API.md §16 (migration 016): a span of a user's reporting line, inclusive; manager_id null = no manager. */
export interface ReportingLinesTable {
  user_id: string;
  manager_id: string | null;
  effective_from: DateOnly;
  effective_to: DateOnly | null;
}

export interface InvitationsTable {
  id: string;
  user_id: string;
  /** SHA-256 (hex) of the token in the invitation URL; the token itself is never stored. */
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  created_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** SHA-256 (hex) of the cookie's value; the value itself is never stored. */
  token_hash: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  /** The absolute timeout (CTS_SESSION_MAX_HOURS after sign-in). */
  expires_at: Timestamp;
  ended_at: Timestamp | null;
  ended_reason: string | null;
}

export interface AuditEventsTable {
  id: string;
  actor_type: OneOf<typeof ACTOR_TYPES>;
  actor_id: string | null;
  actor_name: string;
  action: string;
  resource: string;
  resource_id: string;
  before: Json | null;
  after: Json | null;
  request_id: string | null;
  created_at: Timestamp;
  /** A deal row's per-person line totals then (014_commission_scopes.sql). */
  line_totals: Json<LineTotalsColumn> | null;
}

/** Each person's non-void line total on a deal, before and after an audited change. */
export interface LineTotalsColumn {
  before?: Record<string, string>;
  after?: Record<string, string>;
}

export interface RequestLogsTable {
  id: string;
  key_id: string | null;
  user_id: Generated<string | null>;
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
  status: Generated<OneOf<typeof JOB_STATUSES>>;
  run_at: Timestamp;
  locked_until: Timestamp | null;
  claimed_by: string | null;
  attempts: Generated<number>;
  total: number | null;
  done: Generated<number>;
  error: string | null;
  /** The answer of a job that computes one (013); null for the others. */
  result: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
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

/** The audit row as a JSON row (`auditMany`). */
export const AUDIT_EVENT_COLUMNS: PgColumns<AuditEventsTable> = {
  id: "text",
  actor_type: "text",
  actor_id: "text",
  actor_name: "text",
  action: "text",
  resource: "text",
  resource_id: "text",
  before: "jsonb",
  after: "jsonb",
  request_id: "text",
  created_at: "timestamptz",
  line_totals: "jsonb",
};

/** The outbox row as a JSON row (`emitMany`). */
export const EVENT_COLUMNS: PgColumns<EventsTable> = {
  id: "text",
  type: "text",
  data: "jsonb",
  created_at: "timestamptz",
};
