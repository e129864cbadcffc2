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

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: Timestamp;
}

export interface DB {
  api_keys: ApiKeysTable;
  users: UsersTable;
  audit_events: AuditEventsTable;
  request_logs: RequestLogsTable;
  jobs: JobsTable;
  events: EventsTable;
  schema_migrations: SchemaMigrationsTable;
}
