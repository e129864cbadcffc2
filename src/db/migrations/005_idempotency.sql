-- Idempotency-Key records (API.md §2): per API key, kept 24 h. A row is `running` while the first
-- request is in flight and holds the stored response once it finished with a 2xx or 4xx.
CREATE TABLE idempotency_keys (
  key_id        text NOT NULL,
  idem_key      text NOT NULL,
  fingerprint   text NOT NULL,
  state         text NOT NULL CHECK (state IN ('running', 'done', 'secret')),
  status        integer,
  content_type  text,
  body          text,
  created_at    timestamptz(3) NOT NULL,
  locked_until  timestamptz(3),
  PRIMARY KEY (key_id, idem_key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
