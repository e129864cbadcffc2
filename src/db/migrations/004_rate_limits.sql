-- Shared sliding logs for rate limits when several API processes serve one deployment without Redis.
-- `hits` holds the allowed request times (unix ms) still inside the window, oldest first.
CREATE TABLE rate_limits (
  key         text PRIMARY KEY,
  hits        bigint[] NOT NULL,
  allowed     boolean NOT NULL,
  expires_at  timestamptz(3) NOT NULL
);
CREATE INDEX rate_limits_expires_idx ON rate_limits (expires_at);
