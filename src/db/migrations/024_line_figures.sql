-- The team page (GET /users/statements) sums each person's lines of a period from the (user_id, period)
-- index, but needed each line's credit and quota from its explanation: one heap page per line (issue #35,
-- bench/README.md "The team page"). Both are stored beside the explanation, generated from it, so every
-- writer of lines — and every update of an explanation — keeps them equal to it without knowing they
-- exist; the text is exactly what `explanation->>'credit'` gives (a decimal, or a converted ratio such as
-- "25175/23", API.md §15). Adding them rewrites the table once.
ALTER TABLE commission_lines
  ADD COLUMN credit text GENERATED ALWAYS AS (explanation ->> 'credit') STORED,
  ADD COLUMN quota text GENERATED ALWAYS AS (explanation ->> 'quota') STORED;
-- The same key as before, now covering every column the team page's read touches, so it is an index-only
-- scan wherever the visibility map is current (autovacuum). It replaces the plain (user_id, period) index:
-- one index for both, no more writes per line than before.
DROP INDEX commission_lines_user_period_idx;
CREATE INDEX commission_lines_user_period_idx ON commission_lines (user_id, period)
  INCLUDE (status, kind, plan_id, plan_version, currency, amount, credit, quota, calculated_at, deal_id);
-- An index-only scan reads the heap for every line on a page not marked all-visible (written since the
-- last VACUUM): the lines of the current period are the ones written most. Autovacuum waits for 20 % of
-- the table by default (400,000 lines of 2,000,000); 1 % (inserts) and 2 % (updates, deletes) keep the
-- visibility map nearly current, and a VACUUM of a table mostly all-visible skips those pages. PGlite runs
-- no autovacuum: its upkeep job vacuums the table (app/retention.ts).
ALTER TABLE commission_lines SET (autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_vacuum_scale_factor = 0.02);
-- Autovacuum analyzes a table after 50 + 10 % of its rows change: a company's few dozen plans never get
-- there, and a planner that takes comp_plans for one row chose a nested loop that made the team page's
-- assignments read 21 ms a page instead of 2 (bench/README.md "an index-only read"). Five changes will do.
ALTER TABLE comp_plans SET (autovacuum_analyze_threshold = 5);
ALTER TABLE comp_plan_versions SET (autovacuum_analyze_threshold = 5);
