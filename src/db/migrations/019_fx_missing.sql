-- API.md §15: a deal's `fx_missing`, the currency pairs it has no usable rate for.
-- Each credit's plan and SPIFF lines find theirs (the split's), the deal's override lines theirs (the
-- deal's `override_fx_missing`); `fx_missing` is their union as the API writes it (JSON text, pairs by
-- from and to), kept by the recalculation so that reads and the `?fx_missing=` filter read one column.
ALTER TABLE deal_splits ADD COLUMN fx_missing jsonb;
ALTER TABLE deals ADD COLUMN override_fx_missing jsonb;
ALTER TABLE deals ADD COLUMN fx_missing text NOT NULL DEFAULT '[]';
CREATE INDEX deals_fx_missing_idx ON deals (close_date) WHERE fx_missing <> '[]';
