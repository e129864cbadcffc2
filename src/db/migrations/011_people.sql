-- People (API.md §11): passwords, invitations, sessions; the `user` audit actor; who sent a request.
-- Tokens and session ids are kept only as SHA-256 (hex); passwords only as an argon2id PHC string.

ALTER TABLE users ADD COLUMN password_hash text;
ALTER TABLE users ADD COLUMN password_changed_at timestamptz(3);

CREATE TABLE invitations (
  id            text PRIMARY KEY,
  user_id       text NOT NULL REFERENCES users (id),
  token_hash    text NOT NULL UNIQUE,
  expires_at    timestamptz(3) NOT NULL,
  used_at       timestamptz(3),
  cancelled_at  timestamptz(3),
  created_at    timestamptz(3) NOT NULL
);
CREATE INDEX invitations_user_idx ON invitations (user_id) WHERE used_at IS NULL AND cancelled_at IS NULL;

CREATE TABLE sessions (
  id            text PRIMARY KEY,
  user_id       text NOT NULL REFERENCES users (id),
  token_hash    text NOT NULL UNIQUE,
  created_at    timestamptz(3) NOT NULL,
  last_seen_at  timestamptz(3) NOT NULL,
  expires_at    timestamptz(3) NOT NULL,
  ended_at      timestamptz(3),
  ended_reason  text
);
CREATE INDEX sessions_user_open_idx ON sessions (user_id) WHERE ended_at IS NULL;

ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_type_check CHECK (actor_type IN ('api_key', 'owner', 'user'));

ALTER TABLE request_logs ADD COLUMN user_id text;
