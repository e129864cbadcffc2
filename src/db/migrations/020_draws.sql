-- Draws (API.md §18): a guaranteed minimum per month or quarter, settled in payout runs (§13).

CREATE TABLE draws (
  id                  text PRIMARY KEY,
  user_id             text NOT NULL REFERENCES users (id),
  kind                text NOT NULL CHECK (kind IN ('recoverable', 'non_recoverable')),
  amount              numeric(21, 3) NOT NULL CHECK (amount > 0),
  currency            text NOT NULL,
  period              text NOT NULL CHECK (period IN ('month', 'quarter')),
  starts_on           date NOT NULL,
  ends_on             date NOT NULL,
  recovery_starts_on  date,
  created_at          timestamptz(3) NOT NULL,
  updated_at          timestamptz(3) NOT NULL,
  CHECK (ends_on >= starts_on - 1),
  CHECK ((kind = 'recoverable') = (recovery_starts_on IS NOT NULL))
);
CREATE INDEX draws_user_idx ON draws (user_id, currency, starts_on);
CREATE INDEX draws_created_idx ON draws (created_at DESC, id DESC);

-- A settled period: the non-cancelled run that settled it, what the person earned in it, the advance.
CREATE TABLE draw_periods (
  draw_id        text NOT NULL REFERENCES draws (id),
  period         text NOT NULL,
  ends_on        date NOT NULL,
  payout_run_id  text NOT NULL REFERENCES payout_runs (id),
  earned         numeric(21, 3) NOT NULL,
  advance        numeric(21, 3) NOT NULL CHECK (advance >= 0),
  PRIMARY KEY (draw_id, period)
);
CREATE INDEX draw_periods_run_idx ON draw_periods (payout_run_id);

-- What moves a balance: advances (+) and recoveries (−) with their line, forgiveness (−) with no line.
CREATE TABLE draw_entries (
  id             text PRIMARY KEY,
  draw_id        text NOT NULL REFERENCES draws (id),
  type           text NOT NULL CHECK (type IN ('advance', 'recovery', 'forgiveness')),
  amount         numeric(21, 3) NOT NULL,
  line_id        text,
  payout_run_id  text REFERENCES payout_runs (id),
  reason         text,
  created_at     timestamptz(3) NOT NULL
);
CREATE INDEX draw_entries_draw_idx ON draw_entries (draw_id, created_at, id);
CREATE INDEX draw_entries_run_idx ON draw_entries (payout_run_id) WHERE payout_run_id IS NOT NULL;

-- A draw line has no deal (its currency is set by the writer, so the currency trigger finds none).
ALTER TABLE commission_lines ALTER COLUMN deal_id DROP NOT NULL;
ALTER TABLE commission_lines ADD COLUMN draw_id text REFERENCES draws (id);
ALTER TABLE commission_lines ADD CONSTRAINT commission_lines_draw_check
  CHECK ((kind = 'draw') = (draw_id IS NOT NULL) AND (deal_id IS NOT NULL OR kind = 'draw'));
CREATE INDEX commission_lines_draw_idx ON commission_lines (draw_id) WHERE draw_id IS NOT NULL;
