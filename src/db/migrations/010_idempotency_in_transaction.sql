-- #13.22: a stored reply is written by the transaction that did its work, and "still running" is a
-- lock held by that transaction (PostgreSQL) or the process's memory (embedded), never a row: a crash
-- leaves either the committed reply or nothing. Rows left `running` by the previous design are void.
DELETE FROM idempotency_keys WHERE state = 'running';
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_state_check;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_state_check CHECK (state IN ('done', 'secret'));
ALTER TABLE idempotency_keys DROP COLUMN locked_until;
