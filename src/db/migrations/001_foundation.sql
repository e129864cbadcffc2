-- Foundation: API keys, users, audit trail, request log, background jobs, event outbox.
-- Timestamps are kept at millisecond precision so `updated_since` never skips or repeats a row.

CREATE TABLE api_keys (
  id            text PRIMARY KEY,
  name          text NOT NULL,
  scope         text NOT NULL CHECK (scope IN ('read', 'write', 'admin')),
  environment   text NOT NULL,
  key_hash      text NOT NULL UNIQUE,
  key_prefix    text NOT NULL,
  mcp_access    text NOT NULL DEFAULT 'read' CHECK (mcp_access IN ('read', 'write', 'admin')),
  replaces      text REFERENCES api_keys (id),
  created_at    timestamptz(3) NOT NULL,
  last_used_at  timestamptz(3),
  expires_at    timestamptz(3),
  revoked_at    timestamptz(3)
);
CREATE INDEX api_keys_created_idx ON api_keys (created_at DESC, id DESC);

CREATE TABLE users (
  id           text PRIMARY KEY,
  external_id  text UNIQUE,
  name         text NOT NULL,
  email        text NOT NULL,
  role         text NOT NULL CHECK (role IN ('rep', 'manager', 'admin', 'finance')),
  manager_id   text REFERENCES users (id),
  active       boolean NOT NULL DEFAULT true,
  created_at   timestamptz(3) NOT NULL,
  updated_at   timestamptz(3) NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_created_idx ON users (created_at DESC, id DESC);
CREATE INDEX users_manager_idx ON users (manager_id);

CREATE TABLE audit_events (
  id           text PRIMARY KEY,
  actor_type   text NOT NULL CHECK (actor_type IN ('api_key', 'owner')),
  actor_id     text,
  actor_name   text NOT NULL,
  action       text NOT NULL,
  resource     text NOT NULL,
  resource_id  text NOT NULL,
  before       jsonb,
  after        jsonb,
  request_id   text,
  created_at   timestamptz(3) NOT NULL
);
CREATE INDEX audit_events_resource_idx ON audit_events (resource, resource_id, created_at DESC);
CREATE INDEX audit_events_created_idx ON audit_events (created_at DESC, id DESC);

CREATE TABLE request_logs (
  id           text PRIMARY KEY,
  key_id       text,
  method       text NOT NULL,
  path         text NOT NULL,
  status       integer NOT NULL,
  duration_ms  numeric(12, 3) NOT NULL,
  client_ip    text,
  user_agent   text,
  created_at   timestamptz(3) NOT NULL
);
CREATE INDEX request_logs_created_idx ON request_logs (created_at DESC, id DESC);
CREATE INDEX request_logs_key_idx ON request_logs (key_id, created_at DESC);

-- Background work, claimed with a lease by `cts serve` or `cts worker` (jobs/worker.ts).
CREATE TABLE jobs (
  id            text PRIMARY KEY,
  kind          text NOT NULL,
  payload       jsonb NOT NULL DEFAULT '{}',
  status        text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  run_at        timestamptz(3) NOT NULL,
  locked_until  timestamptz(3),
  claimed_by    text,
  attempts      integer NOT NULL DEFAULT 0,
  total         integer,
  done          integer NOT NULL DEFAULT 0,
  error         text,
  created_at    timestamptz(3) NOT NULL,
  started_at    timestamptz(3),
  finished_at   timestamptz(3)
);
CREATE INDEX jobs_due_idx ON jobs (run_at) WHERE status IN ('queued', 'running');

-- The durable outbox: one row per event, written in the transaction of the change that caused it.
CREATE TABLE events (
  id          text PRIMARY KEY,
  type        text NOT NULL,
  data        jsonb NOT NULL,
  created_at  timestamptz(3) NOT NULL
);
CREATE INDEX events_created_idx ON events (created_at, id);
