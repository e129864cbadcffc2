-- Webhooks (API.md §6): subscriptions, one delivery per (event, subscription), one row per attempt.

CREATE TABLE webhook_subscriptions (
  id                          text PRIMARY KEY,
  url                         text NOT NULL,
  description                 text,
  events                      jsonb NOT NULL,
  status                      text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  disabled_reason             text,
  -- AES-256-GCM boxes (webhooks/secret-box.ts); the raw secret is never stored.
  secret_encrypted            text NOT NULL,
  secret_hint                 text NOT NULL,
  previous_secret_encrypted   text,
  previous_secret_expires_at  timestamptz(3),
  -- First failed attempt since the last success: 5 days of failures disable the subscription.
  failing_since               timestamptz(3),
  created_at                  timestamptz(3) NOT NULL,
  updated_at                  timestamptz(3) NOT NULL
);
CREATE INDEX webhook_subscriptions_created_idx ON webhook_subscriptions (created_at DESC, id DESC);

CREATE TABLE webhook_deliveries (
  id               text PRIMARY KEY,
  subscription_id  text NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
  event_id         text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  event_type       text NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  -- Attempts started (counted at claim, so a worker killed mid-attempt still uses one up).
  attempt_count    integer NOT NULL DEFAULT 0,
  -- The attempt after which a failure is final: 10 by schedule, one more after each manual retry.
  final_attempt    integer NOT NULL DEFAULT 10,
  next_attempt_at  timestamptz(3),
  locked_until     timestamptz(3),
  claimed_by       text,
  created_at       timestamptz(3) NOT NULL,
  UNIQUE (event_id, subscription_id)
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (subscription_id, created_at DESC, id DESC);

CREATE TABLE webhook_attempts (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id      text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempted_at     timestamptz(3) NOT NULL,
  response_status  integer,
  duration_ms      integer NOT NULL,
  error            text,
  response_body    text
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempted_at, id);
CREATE INDEX webhook_attempts_attempted_idx ON webhook_attempts (attempted_at);

-- A time-ordered id like ids.ts makes (Crockford base32 time + 80 random bits), for rows SQL inserts.
CREATE FUNCTION cts_time_id(prefix text, at timestamptz) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  ms bigint := floor(extract(epoch FROM at) * 1000);
  out text := '';
BEGIN
  FOR i IN 1..10 LOOP
    out := substr(alphabet, (ms % 32)::int + 1, 1) || out;
    ms := ms / 32;
  END LOOP;
  FOR i IN 1..16 LOOP
    out := out || substr(alphabet, floor(random() * 32)::int + 1, 1);
  END LOOP;
  RETURN prefix || '_' || out;
END $$;

-- Fan-out in the event's own transaction: the subscriptions that are active and match when the event
-- is written get a delivery, atomically with the change. `webhook.test` goes only to the subscription
-- tested, which inserts its delivery itself.
CREATE FUNCTION cts_webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.type = 'webhook.test' THEN
    RETURN NULL;
  END IF;
  INSERT INTO webhook_deliveries (id, subscription_id, event_id, event_type, next_attempt_at, created_at)
  SELECT cts_time_id('whdel', NEW.created_at), s.id, NEW.id, NEW.type, NEW.created_at, NEW.created_at
  FROM webhook_subscriptions s
  WHERE s.status = 'active' AND (s.events ? '*' OR s.events ? NEW.type);
  IF FOUND THEN
    PERFORM pg_notify('cts_webhook_deliveries', '');
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER events_webhook_fan_out AFTER INSERT ON events
  FOR EACH ROW EXECUTE FUNCTION cts_webhook_fan_out();

-- The workers' claim (webhooks/deliveries-repository.ts): due deliveries of active subscriptions, leased with
-- SKIP LOCKED, returned with what their attempt needs. A function, so its plan is cached per connection.
CREATE FUNCTION cts_claim_webhook_deliveries(worker text, max_rows integer, at timestamptz, lease_until timestamptz)
RETURNS TABLE (id text, subscription_id text, event_id text, event_type text, attempt_count integer,
  final_attempt integer, event_data jsonb, event_created_at timestamptz, url text, secret_encrypted text,
  previous_secret_encrypted text, previous_secret_expires_at timestamptz)
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY
  WITH due AS (
    SELECT d.id FROM webhook_deliveries d
    JOIN webhook_subscriptions s ON s.id = d.subscription_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= at
      AND (d.locked_until IS NULL OR d.locked_until < at)
      AND s.status = 'active'
    ORDER BY d.next_attempt_at, d.id
    LIMIT max_rows
    FOR UPDATE OF d SKIP LOCKED
  ), claimed AS (
    UPDATE webhook_deliveries d
    SET locked_until = lease_until, claimed_by = worker, attempt_count = d.attempt_count + 1
    FROM due WHERE d.id = due.id
    RETURNING d.id, d.subscription_id, d.event_id, d.event_type, d.attempt_count, d.final_attempt, d.next_attempt_at
  )
  SELECT c.id, c.subscription_id, c.event_id, c.event_type, c.attempt_count, c.final_attempt, e.data, e.created_at,
    s.url, s.secret_encrypted, s.previous_secret_encrypted, s.previous_secret_expires_at
  FROM claimed c
  JOIN events e ON e.id = c.event_id
  JOIN webhook_subscriptions s ON s.id = c.subscription_id
  ORDER BY c.next_attempt_at, c.id;
END $$;

-- The workers' group commit of finished attempts (webhooks/attempt-log.ts), one row of `batch` per
-- attempt. A delivery moves on only while that worker still holds the lease of that attempt. Per
-- subscription: a success stops the failure clock; a failure starts it; a 410, or a clock older than
-- 5 days (stale_before), disables the subscription.
CREATE FUNCTION cts_record_webhook_attempts(batch jsonb, gone_reason text, stale_reason text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH input AS (
    SELECT * FROM jsonb_to_recordset(batch) AS x(delivery_id text, worker_id text, attempt integer,
      attempted_at timestamptz, response_status integer, duration_ms integer, error text, response_body text,
      status text, next_attempt_at timestamptz, succeeded boolean, gone boolean, stale_before timestamptz)
  ), attempts AS (
    INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, duration_ms, error, response_body)
    SELECT i.delivery_id, i.attempted_at, i.response_status, i.duration_ms, i.error, i.response_body FROM input i
    WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = i.delivery_id)
  ), moved AS (
    UPDATE webhook_deliveries d
    SET status = i.status, next_attempt_at = i.next_attempt_at, locked_until = NULL, claimed_by = NULL
    FROM input i
    WHERE d.id = i.delivery_id AND d.claimed_by = i.worker_id AND d.attempt_count = i.attempt
    RETURNING d.subscription_id, i.succeeded, i.gone, i.attempted_at, i.stale_before
  ), e AS (
    SELECT m.subscription_id, bool_or(m.succeeded) AS succeeded, bool_or(m.gone) AS gone,
      min(m.attempted_at) AS first_at, max(m.attempted_at) AS last_at, max(m.stale_before) AS stale_before
    FROM moved m GROUP BY m.subscription_id
  ), verdict AS (
    SELECT e.*, s.id AS sid, (e.succeeded AND NOT e.gone) AS clears,
      (e.gone OR (NOT e.succeeded AND coalesce(s.failing_since, e.first_at) <= e.stale_before)) AS disables
    FROM e JOIN webhook_subscriptions s ON s.id = e.subscription_id
    WHERE s.status = 'active'
  )
  UPDATE webhook_subscriptions s SET
    failing_since = CASE WHEN v.clears THEN NULL ELSE coalesce(s.failing_since, v.first_at) END,
    status = CASE WHEN v.disables THEN 'disabled' ELSE s.status END,
    disabled_reason = CASE WHEN v.disables THEN (CASE WHEN v.gone THEN gone_reason ELSE stale_reason END)
      ELSE s.disabled_reason END,
    updated_at = CASE WHEN v.disables THEN v.last_at ELSE s.updated_at END
  FROM verdict v
  WHERE s.id = v.sid AND CASE WHEN v.clears THEN s.failing_since IS NOT NULL ELSE (s.failing_since IS NULL OR v.disables) END;
END $$;
