-- Comp plans (with immutable versions), assignments, SPIFFs, deals and their splits, commission lines.
-- Money is numeric (exact); rates and factors keep 6 decimals, split percents 4.

CREATE TABLE comp_plans (
  id                     text PRIMARY KEY,
  name                   text NOT NULL,
  description            text,
  status                 text NOT NULL CHECK (status IN ('draft', 'active', 'archived')),
  currency               text NOT NULL,
  period                 text NOT NULL CHECK (period IN ('month', 'quarter', 'year')),
  quota                  numeric(18, 2),
  base_rate              numeric(12, 6),
  tiers                  jsonb NOT NULL DEFAULT '[]',
  deal_type_multipliers  jsonb NOT NULL DEFAULT '{}',
  min_deal_amount        numeric(18, 2),
  cap_per_period         numeric(18, 2),
  effective_from         date NOT NULL,
  effective_to           date,
  version                integer NOT NULL,
  created_at             timestamptz(3) NOT NULL,
  updated_at             timestamptz(3) NOT NULL,
  CHECK (effective_to IS NULL OR effective_to >= effective_from)
);
CREATE INDEX comp_plans_created_idx ON comp_plans (created_at DESC, id DESC);
CREATE INDEX comp_plans_status_idx ON comp_plans (status, created_at DESC, id DESC);

-- The terms of every version a line was ever calculated with; never updated once lines reference them.
CREATE TABLE comp_plan_versions (
  plan_id                text NOT NULL REFERENCES comp_plans (id),
  version                integer NOT NULL,
  currency               text NOT NULL,
  period                 text NOT NULL,
  quota                  numeric(18, 2),
  base_rate              numeric(12, 6),
  tiers                  jsonb NOT NULL,
  deal_type_multipliers  jsonb NOT NULL,
  min_deal_amount        numeric(18, 2),
  cap_per_period         numeric(18, 2),
  effective_from         date NOT NULL,
  effective_to           date,
  created_at             timestamptz(3) NOT NULL,
  PRIMARY KEY (plan_id, version)
);

CREATE TABLE plan_assignments (
  id              text PRIMARY KEY,
  plan_id         text NOT NULL REFERENCES comp_plans (id),
  user_id         text NOT NULL REFERENCES users (id),
  effective_from  date NOT NULL,
  effective_to    date,
  quota_override  numeric(18, 2),
  created_at      timestamptz(3) NOT NULL,
  updated_at      timestamptz(3) NOT NULL,
  CHECK (effective_to IS NULL OR effective_to >= effective_from)
);
CREATE INDEX plan_assignments_user_idx ON plan_assignments (user_id, effective_from);
CREATE INDEX plan_assignments_plan_idx ON plan_assignments (plan_id, created_at DESC, id DESC);

CREATE TABLE spiffs (
  id           text PRIMARY KEY,
  name         text NOT NULL,
  description  text,
  currency     text NOT NULL,
  starts_on    date NOT NULL,
  ends_on      date NOT NULL,
  criteria     jsonb NOT NULL,
  payout       jsonb NOT NULL,
  active       boolean NOT NULL DEFAULT true,
  created_at   timestamptz(3) NOT NULL,
  updated_at   timestamptz(3) NOT NULL,
  CHECK (ends_on >= starts_on)
);
CREATE INDEX spiffs_created_idx ON spiffs (created_at DESC, id DESC);
CREATE INDEX spiffs_window_idx ON spiffs (starts_on, ends_on);

CREATE TABLE deals (
  id                text PRIMARY KEY,
  external_id       text,
  opportunity_name  text NOT NULL,
  arr_amount        numeric(18, 2) NOT NULL CHECK (arr_amount >= 0),
  currency          text NOT NULL,
  deal_type         text NOT NULL CHECK (deal_type IN ('new_business', 'expansion', 'renewal', 'other')),
  close_date        date NOT NULL,
  owner_id          text NOT NULL REFERENCES users (id),
  -- false while splits were never given: they then follow owner_id.
  splits_explicit   boolean NOT NULL DEFAULT false,
  status            text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'approved', 'rejected', 'disputed', 'paid')),
  total_commission  numeric(20, 2) NOT NULL DEFAULT 0,
  rejection_reason  text,
  approved_at       timestamptz(3),
  paid_at           timestamptz(3),
  created_at        timestamptz(3) NOT NULL,
  updated_at        timestamptz(3) NOT NULL
);
CREATE UNIQUE INDEX deals_external_id_key ON deals (external_id);
CREATE INDEX deals_created_idx ON deals (created_at DESC, id DESC);
CREATE INDEX deals_close_date_idx ON deals (close_date, id);
CREATE INDEX deals_arr_amount_idx ON deals (arr_amount, id);
CREATE INDEX deals_total_commission_idx ON deals (total_commission, id);
CREATE INDEX deals_updated_idx ON deals (updated_at, id);
CREATE INDEX deals_owner_idx ON deals (owner_id, created_at DESC, id DESC);
CREATE INDEX deals_status_idx ON deals (status, created_at DESC, id DESC);

-- One row per credited user; close_date is copied from the deal so a (user, period) bucket loads
-- through one index.
CREATE TABLE deal_splits (
  deal_id         text NOT NULL REFERENCES deals (id) ON DELETE CASCADE,
  user_id         text NOT NULL REFERENCES users (id),
  position        smallint NOT NULL,
  percent         numeric(7, 4) NOT NULL CHECK (percent > 0 AND percent <= 100),
  close_date      date NOT NULL,
  -- Why this user earns no plan line on this deal (API.md §5 rule 1), null when a plan is in force.
  no_plan_reason  text,
  PRIMARY KEY (deal_id, user_id)
);
CREATE INDEX deal_splits_user_idx ON deal_splits (user_id, close_date);

CREATE TABLE commission_lines (
  id             text PRIMARY KEY,
  deal_id        text NOT NULL REFERENCES deals (id) ON DELETE CASCADE,
  user_id        text NOT NULL REFERENCES users (id),
  plan_id        text,
  plan_version   integer,
  -- No foreign key: a deleted SPIFF's locked lines keep naming it.
  spiff_id       text,
  kind           text NOT NULL CHECK (kind IN ('plan', 'spiff', 'adjustment')),
  period         text NOT NULL,
  amount         numeric(20, 2) NOT NULL,
  status         text NOT NULL CHECK (status IN ('pending', 'approved', 'paid', 'void')),
  locked         boolean NOT NULL DEFAULT false,
  explanation    jsonb NOT NULL,
  calculated_at  timestamptz(3) NOT NULL,
  created_at     timestamptz(3) NOT NULL,
  FOREIGN KEY (plan_id, plan_version) REFERENCES comp_plan_versions (plan_id, version)
);
CREATE UNIQUE INDEX commission_lines_plan_key ON commission_lines (deal_id, user_id) WHERE kind = 'plan';
CREATE UNIQUE INDEX commission_lines_spiff_key ON commission_lines (deal_id, user_id, spiff_id) WHERE kind = 'spiff';
CREATE INDEX commission_lines_deal_idx ON commission_lines (deal_id);
CREATE INDEX commission_lines_created_idx ON commission_lines (created_at DESC, id DESC);
CREATE INDEX commission_lines_user_period_idx ON commission_lines (user_id, period);
CREATE INDEX commission_lines_bucket_idx ON commission_lines (plan_id, user_id, period) WHERE kind = 'plan';
CREATE INDEX commission_lines_spiff_idx ON commission_lines (spiff_id) WHERE kind = 'spiff';
CREATE INDEX commission_lines_status_idx ON commission_lines (status, created_at DESC, id DESC);
