-- API.md §15: exchange rates by date and base, and the age a plan or SPIFF accepts.

-- One rate set per (date, base): 1 base = rates[code] units of code. The rates are exact plain decimal
-- strings ("0.92", never a float) in a jsonb object, so what was sent is what the lookup reads.
CREATE TABLE exchange_rate_sets (
  date        date NOT NULL,
  base        text NOT NULL CHECK (base ~ '^[A-Z]{3}$'),
  rates       jsonb NOT NULL CHECK (jsonb_typeof(rates) = 'object'),
  created_at  timestamptz(3) NOT NULL,
  updated_at  timestamptz(3) NOT NULL,
  PRIMARY KEY (date, base)
);

-- The newest rate on or before a close date: versioned with the plan's other terms.
ALTER TABLE comp_plans ADD COLUMN fx_max_age_days smallint NOT NULL DEFAULT 7
  CHECK (fx_max_age_days BETWEEN 0 AND 31);
ALTER TABLE comp_plan_versions ADD COLUMN fx_max_age_days smallint NOT NULL DEFAULT 7
  CHECK (fx_max_age_days BETWEEN 0 AND 31);
ALTER TABLE spiffs ADD COLUMN fx_max_age_days smallint NOT NULL DEFAULT 7
  CHECK (fx_max_age_days BETWEEN 0 AND 31);
