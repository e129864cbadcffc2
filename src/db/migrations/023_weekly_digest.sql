-- The weekly digest (docs/notifications.md): one row per ISO week whose digests were queued, written in
-- the transaction that queues them, so a week is composed once whatever restarts or workers do (its
-- deliveries are unique per week and person besides).
CREATE TABLE notification_digest_weeks (
  week        text PRIMARY KEY,
  queued      integer NOT NULL,
  created_at  timestamptz(3) NOT NULL
);
