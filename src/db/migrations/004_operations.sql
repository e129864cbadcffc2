-- Operations: shared sliding logs for rate limits (several API processes without Redis), retention.
-- `hits` holds the allowed request times (unix ms) still inside the window, oldest first.
CREATE TABLE rate_limits (
  key         text PRIMARY KEY,
  hits        bigint[] NOT NULL,
  allowed     boolean NOT NULL,
  expires_at  timestamptz(3) NOT NULL
);
CREATE INDEX rate_limits_expires_idx ON rate_limits (expires_at);

-- Recurring maintenance (retention) is a job that queues its own successor: at most one waits at a time.
CREATE UNIQUE INDEX jobs_one_queued_retention ON jobs (kind) WHERE kind = 'retention' AND status = 'queued';
