-- The pay cycle (API.md §13 payout runs, §14 cancellations, refunds and clawbacks).

-- §13: a person's id in the payroll system (ADP's File #, Gusto's employee id).
ALTER TABLE users ADD COLUMN payroll_id text;
CREATE UNIQUE INDEX users_payroll_id_key ON users (payroll_id) WHERE payroll_id IS NOT NULL;

-- A run snapshots what to pay through a date; finalized runs never change. `seq` orders runs by creation
-- (two runs created in one millisecond still have an order), which decides deficits carried between them.
CREATE TABLE payout_runs (
  id                    text PRIMARY KEY,
  seq                   bigint GENERATED ALWAYS AS IDENTITY,
  status                text NOT NULL CHECK (status IN ('draft', 'finalized', 'cancelled')),
  through               date NOT NULL,
  pay_date              date NOT NULL,
  currency              text,
  user_ids              jsonb,
  max_recovery_percent  numeric(7, 4) NOT NULL CHECK (max_recovery_percent >= 0 AND max_recovery_percent <= 100),
  period_start          date NOT NULL,
  period_end            date NOT NULL,
  created_at            timestamptz(3) NOT NULL,
  created_by            text NOT NULL,
  finalized_at          timestamptz(3),
  finalized_by          text,
  cancelled_at          timestamptz(3),
  cancelled_by          text
);
CREATE UNIQUE INDEX payout_runs_seq_key ON payout_runs (seq);
CREATE INDEX payout_runs_created_idx ON payout_runs (created_at DESC, id DESC);
CREATE INDEX payout_runs_status_idx ON payout_runs (status, seq);

-- One row per person and currency in a run: the gross by kind and the netting (§13 "Netting per payee").
-- Name, email, external and payroll ids are copied when the run is created and again when it is
-- finalized, so a finalized run and its exports never change when the person is edited later.
CREATE TABLE payout_run_payees (
  run_id                   text NOT NULL REFERENCES payout_runs (id),
  user_id                  text NOT NULL REFERENCES users (id),
  currency                 text NOT NULL,
  name                     text NOT NULL,
  email                    text NOT NULL,
  external_id              text,
  payroll_id               text,
  gross_plan               numeric(20, 2) NOT NULL DEFAULT 0,
  gross_spiff              numeric(20, 2) NOT NULL DEFAULT 0,
  gross_override           numeric(20, 2) NOT NULL DEFAULT 0,
  gross_adjustment         numeric(20, 2) NOT NULL DEFAULT 0,
  gross_clawback           numeric(20, 2) NOT NULL DEFAULT 0,
  gross_draw_advance       numeric(20, 2) NOT NULL DEFAULT 0,
  gross_draw_recovery      numeric(20, 2) NOT NULL DEFAULT 0,
  line_count               integer NOT NULL,
  lines_total              numeric(20, 2) NOT NULL,
  positive_total           numeric(20, 2) NOT NULL,
  deficit_brought_forward  numeric(20, 2) NOT NULL CHECK (deficit_brought_forward >= 0),
  recovery_cap             numeric(20, 2) NOT NULL CHECK (recovery_cap >= 0),
  recovered                numeric(20, 2) NOT NULL CHECK (recovered >= 0),
  net_pay                  numeric(20, 2) NOT NULL CHECK (net_pay >= 0),
  deficit_carried_forward  numeric(20, 2) NOT NULL CHECK (deficit_carried_forward >= 0),
  PRIMARY KEY (run_id, user_id, currency)
);
CREATE INDEX payout_run_payees_user_idx ON payout_run_payees (user_id, currency);

-- A line's currency (today its deal's; §15 will make it the plan's) is filled from the deal on insert, so
-- every writer of lines keeps working; `payout_run_id` is the one draft or finalized run holding it.
ALTER TABLE commission_lines ADD COLUMN currency text;
UPDATE commission_lines l SET currency = d.currency FROM deals d WHERE d.id = l.deal_id;
ALTER TABLE commission_lines ALTER COLUMN currency SET NOT NULL;
CREATE FUNCTION cts_line_currency() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.currency IS NULL THEN
    SELECT currency INTO NEW.currency FROM deals WHERE id = NEW.deal_id;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER commission_lines_currency BEFORE INSERT ON commission_lines
  FOR EACH ROW EXECUTE FUNCTION cts_line_currency();
ALTER TABLE commission_lines ADD COLUMN payout_run_id text REFERENCES payout_runs (id);
CREATE INDEX commission_lines_payout_run_idx ON commission_lines (payout_run_id, user_id) WHERE payout_run_id IS NOT NULL;
-- What a new run selects: approved lines in no run.
CREATE INDEX commission_lines_unpaid_idx ON commission_lines (user_id) WHERE status = 'approved' AND payout_run_id IS NULL;

ALTER TABLE commission_lines DROP CONSTRAINT commission_lines_kind_check;
ALTER TABLE commission_lines ADD CONSTRAINT commission_lines_kind_check
  CHECK (kind IN ('plan', 'spiff', 'adjustment', 'clawback', 'override', 'draw'));

-- §14: cancellations and refunds. A cancelled deal is final; its lines keep counting in attainment.
ALTER TABLE deals DROP CONSTRAINT deals_status_check;
ALTER TABLE deals ADD CONSTRAINT deals_status_check
  CHECK (status IN ('pending', 'approved', 'rejected', 'disputed', 'paid', 'cancelled'));
ALTER TABLE deals ADD COLUMN contract_start date;
ALTER TABLE deals ADD COLUMN contract_end date;
ALTER TABLE deals ADD CONSTRAINT deals_contract_check
  CHECK ((contract_start IS NULL) = (contract_end IS NULL) AND (contract_start IS NULL OR contract_start < contract_end));
ALTER TABLE deals ADD COLUMN cancelled_at timestamptz(3);
ALTER TABLE deals ADD COLUMN cancel_reason text;
ALTER TABLE deals ADD COLUMN cancel_effective_date date;
ALTER TABLE deals ADD COLUMN refunded_amount numeric(18, 2) NOT NULL DEFAULT 0;

-- The clawback policy, versioned with the plan's terms: the clawed lines' plan_version decides.
ALTER TABLE comp_plans ADD COLUMN clawback jsonb;
ALTER TABLE comp_plan_versions ADD COLUMN clawback jsonb;

CREATE TABLE deal_refunds (
  id                 text PRIMARY KEY,
  deal_id            text NOT NULL REFERENCES deals (id),
  amount             numeric(18, 2) NOT NULL CHECK (amount > 0),
  effective_date     date NOT NULL,
  reason             text,
  clawback_line_ids  jsonb NOT NULL DEFAULT '[]',
  created_at         timestamptz(3) NOT NULL
);
CREATE INDEX deal_refunds_deal_idx ON deal_refunds (deal_id, created_at, id);
-- A clawback line names the refund that wrote it (null for a cancellation's).
ALTER TABLE commission_lines ADD COLUMN refund_id text REFERENCES deal_refunds (id);
