-- Retroactive corrections (API.md §12): an adjustment line written by a plan change names the locked
-- line it corrects, so a later change corrects what the rep is owed now (line + earlier corrections).
ALTER TABLE commission_lines ADD COLUMN adjusts_line_id text REFERENCES commission_lines (id);
CREATE INDEX commission_lines_adjusts_idx ON commission_lines (adjusts_line_id) WHERE adjusts_line_id IS NOT NULL;
