-- A digest of the explanation as the engine last wrote it: a recalculation compares digests instead of
-- reading every explanation back. NULL (lines written before this column) compares unequal, so such a
-- line is rewritten once by the next recalculation that reaches it.
ALTER TABLE commission_lines ADD COLUMN explanation_digest text;
