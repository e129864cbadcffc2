-- Email notifications (docs/notifications.md): the events that may notify someone are queued by a
-- trigger in the event's own transaction; the worker expands each into one delivery per person (unique
-- per event, person and kind) and sends it after commit, never in a request's time.
CREATE TABLE notification_queue (
  event_id    text PRIMARY KEY,
  created_at  timestamptz(3) NOT NULL
);

CREATE FUNCTION cts_notification_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.type IN ('deal.approved', 'deal.rejected', 'deal.cancelled', 'dispute.opened', 'dispute.resolved',
      'payout_run.finalized') THEN
    INSERT INTO notification_queue (event_id, created_at) VALUES (NEW.id, NEW.created_at);
    PERFORM pg_notify('cts_webhook_deliveries', '');
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER events_notification_queue AFTER INSERT ON events
  FOR EACH ROW EXECUTE FUNCTION cts_notification_queue();

CREATE TABLE notification_deliveries (
  id                text PRIMARY KEY,
  -- `<event id or source id>:<user id>:<kind>`: one message per cause and person, whatever restarts.
  dedupe_key        text NOT NULL UNIQUE,
  kind              text NOT NULL,
  user_id           text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  event_id          text,
  to_address        text NOT NULL,
  data              jsonb NOT NULL,
  -- The one secret a message may carry (a reset or invitation token), AES-GCM, erased once sent or failed.
  secret_encrypted  text,
  status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempt_count     integer NOT NULL DEFAULT 0,
  next_attempt_at   timestamptz(3) NOT NULL,
  lease_owner       text,
  lease_until       timestamptz(3),
  last_error        text,
  sent_at           timestamptz(3),
  created_at        timestamptz(3) NOT NULL
);
CREATE INDEX notification_deliveries_due_idx ON notification_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX notification_deliveries_created_idx ON notification_deliveries (created_at DESC, id DESC);

CREATE TABLE notification_preferences (
  user_id  text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind     text NOT NULL,
  enabled  boolean NOT NULL,
  PRIMARY KEY (user_id, kind)
);

CREATE TABLE password_resets (
  id          text PRIMARY KEY,
  user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash  text NOT NULL UNIQUE,
  expires_at  timestamptz(3) NOT NULL,
  used_at     timestamptz(3),
  created_at  timestamptz(3) NOT NULL
);
CREATE INDEX password_resets_user_idx ON password_resets (user_id, created_at);

CREATE TABLE plan_acknowledgements (
  id               text PRIMARY KEY,
  user_id          text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  plan_id          text NOT NULL REFERENCES comp_plans (id),
  plan_version     integer NOT NULL,
  document_sha256  text,
  acknowledged_at  timestamptz(3),
  created_at       timestamptz(3) NOT NULL,
  UNIQUE (user_id, plan_id, plan_version)
);
CREATE INDEX plan_acknowledgements_pending_idx ON plan_acknowledgements (created_at) WHERE acknowledged_at IS NULL;

-- A person assigned a plan, or whose plan gets a new version, is asked to acknowledge that version:
-- written in the assignment's (or version's) own transaction. Acknowledgement never gates pay.
CREATE FUNCTION cts_plan_ack_on_assignment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO plan_acknowledgements (id, user_id, plan_id, plan_version, created_at)
  SELECT cts_time_id('pack', NEW.created_at), NEW.user_id, p.id, p.version, NEW.created_at
  FROM comp_plans p WHERE p.id = NEW.plan_id
  ON CONFLICT (user_id, plan_id, plan_version) DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER plan_assignments_acknowledgement AFTER INSERT ON plan_assignments
  FOR EACH ROW EXECUTE FUNCTION cts_plan_ack_on_assignment();

CREATE FUNCTION cts_plan_ack_on_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO plan_acknowledgements (id, user_id, plan_id, plan_version, created_at)
  SELECT cts_time_id('pack', NEW.created_at), a.user_id, NEW.plan_id, NEW.version, NEW.created_at
  FROM (SELECT DISTINCT user_id FROM plan_assignments
        WHERE plan_id = NEW.plan_id AND (effective_to IS NULL OR effective_to >= NEW.created_at::date)) a
  ON CONFLICT (user_id, plan_id, plan_version) DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER comp_plan_versions_acknowledgement AFTER INSERT ON comp_plan_versions
  FOR EACH ROW EXECUTE FUNCTION cts_plan_ack_on_version();
