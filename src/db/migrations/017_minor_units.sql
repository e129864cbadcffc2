-- ISO 4217 minor units (API.md §15): money has up to 3 decimals (KWD, BHD, OMR …), so every money column
-- widens from 2 to 3 decimals, keeping its integer digits. Values are unchanged (1234.50 reads 1234.500;
-- the API writes trim_scale'd or currency-formatted text, never the column's scale).
ALTER TABLE comp_plans
  ALTER COLUMN quota TYPE numeric(19, 3),
  ALTER COLUMN min_deal_amount TYPE numeric(19, 3),
  ALTER COLUMN cap_per_period TYPE numeric(19, 3);
ALTER TABLE comp_plan_versions
  ALTER COLUMN quota TYPE numeric(19, 3),
  ALTER COLUMN min_deal_amount TYPE numeric(19, 3),
  ALTER COLUMN cap_per_period TYPE numeric(19, 3);
ALTER TABLE plan_assignments ALTER COLUMN quota_override TYPE numeric(19, 3);
ALTER TABLE deals
  ALTER COLUMN arr_amount TYPE numeric(19, 3),
  ALTER COLUMN total_commission TYPE numeric(21, 3),
  ALTER COLUMN refunded_amount TYPE numeric(19, 3);
ALTER TABLE commission_lines ALTER COLUMN amount TYPE numeric(21, 3);
ALTER TABLE disputes
  ALTER COLUMN expected_amount TYPE numeric(21, 3),
  ALTER COLUMN resolved_amount TYPE numeric(21, 3);
ALTER TABLE deal_refunds ALTER COLUMN amount TYPE numeric(19, 3);
ALTER TABLE payout_run_payees
  ALTER COLUMN gross_plan TYPE numeric(21, 3),
  ALTER COLUMN gross_spiff TYPE numeric(21, 3),
  ALTER COLUMN gross_override TYPE numeric(21, 3),
  ALTER COLUMN gross_adjustment TYPE numeric(21, 3),
  ALTER COLUMN gross_clawback TYPE numeric(21, 3),
  ALTER COLUMN gross_draw_advance TYPE numeric(21, 3),
  ALTER COLUMN gross_draw_recovery TYPE numeric(21, 3),
  ALTER COLUMN lines_total TYPE numeric(21, 3),
  ALTER COLUMN positive_total TYPE numeric(21, 3),
  ALTER COLUMN deficit_brought_forward TYPE numeric(21, 3),
  ALTER COLUMN recovery_cap TYPE numeric(21, 3),
  ALTER COLUMN recovered TYPE numeric(21, 3),
  ALTER COLUMN net_pay TYPE numeric(21, 3),
  ALTER COLUMN deficit_carried_forward TYPE numeric(21, 3);
