-- Commission-cost accounting (API.md §17, ASC 340-40): the settings, an asset per capitalizable line
-- approved, what moved it (the inputs), and its postings (the outputs the reports aggregate).
-- A month is an integer: year × 12 + month − 1, so spans and overlaps are plain arithmetic.

CREATE TABLE accounting_settings (
  id              boolean PRIMARY KEY DEFAULT true CHECK (id),
  settings        jsonb NOT NULL,
  -- When the assets of deals approved before this migration were built (NULL: not yet; the server
  -- builds them once, at its first start after the migration).
  assets_built_at timestamptz(3),
  updated_at      timestamptz(3) NOT NULL
);
INSERT INTO accounting_settings (settings, updated_at) VALUES (
  '{"expected_customer_life_months": 60, "renewal_commission_commensurate": false, "practical_expedient": true,
    "capitalize_kinds": ["plan", "spiff", "override"],
    "accounts": {"deferred_commissions": "Deferred commissions", "commission_expense": "Commission expense",
                 "clawback_receivable": "Commission clawbacks receivable", "commissions_payable": "Commissions payable"}}',
  now()
);

-- A database with no approved deal has no earlier approval to build assets for.
UPDATE accounting_settings SET assets_built_at = now()
WHERE NOT EXISTS (SELECT 1 FROM deals WHERE approved_at IS NOT NULL);

CREATE TABLE accounting_assets (
  line_id         text PRIMARY KEY REFERENCES commission_lines (id),
  deal_id         text NOT NULL REFERENCES deals (id),
  user_id         text NOT NULL REFERENCES users (id),
  plan_id         text,
  kind            text NOT NULL CHECK (kind IN ('plan', 'spiff', 'override')),
  currency        text NOT NULL,
  amount          numeric(21, 3) NOT NULL,
  treatment       text NOT NULL CHECK (treatment IN ('capitalized', 'expensed')),
  months          integer NOT NULL CHECK (months BETWEEN 1 AND 240),
  start_month     integer NOT NULL,
  approval_month  integer NOT NULL,
  approved_on     date NOT NULL,
  -- The schedule's last month (its last posting's); the approval month when expensed.
  last_month      integer NOT NULL,
  created_at      timestamptz(3) NOT NULL
);
CREATE INDEX accounting_assets_deal_idx ON accounting_assets (deal_id);
CREATE INDEX accounting_assets_user_idx ON accounting_assets (user_id, approval_month);
CREATE INDEX accounting_assets_month_idx ON accounting_assets (approval_month, last_month);

-- The adjustments, clawbacks and cancellations that moved an asset after its approval, in booking order.
CREATE TABLE accounting_events (
  line_id         text NOT NULL REFERENCES accounting_assets (line_id),
  seq             integer NOT NULL,
  type            text NOT NULL CHECK (type IN ('adjustment', 'clawback', 'impairment')),
  month           integer NOT NULL,
  booked_on       date NOT NULL,
  amount          numeric(21, 3),
  source_line_id  text,
  PRIMARY KEY (line_id, seq)
);

-- One row per movement; an amortization row is a run: `amount` in each month first_month … last_month
-- (booked on each month's last day). Rebuilt from the asset and its events whenever an event is added.
CREATE TABLE accounting_postings (
  line_id         text NOT NULL REFERENCES accounting_assets (line_id),
  currency        text NOT NULL,
  type            text NOT NULL CHECK (type IN ('addition', 'adjustment', 'amortization', 'clawback', 'impairment',
                                                'expense', 'clawback_excess')),
  first_month     integer NOT NULL,
  last_month      integer NOT NULL,
  booked_on       date,
  amount          numeric(21, 3) NOT NULL,
  source_line_id  text,
  CHECK (last_month >= first_month),
  CHECK ((type = 'amortization') = (booked_on IS NULL))
);
CREATE INDEX accounting_postings_line_idx ON accounting_postings (line_id);
CREATE INDEX accounting_postings_month_idx ON accounting_postings (first_month, last_month);
