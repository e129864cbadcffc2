-- A plan's impact preview (and the retroactive corrections a plan edit makes) reprices each locked plan
-- line at what the rep is owed for it today: its amount plus the adjustments made to it (its retroactive
-- corrections and the deal's dispute resolutions for that user: locked-repository.ts `loadLockedLines`).
-- Adjustments are few, but found through commission_lines_deal_idx each line's search visited the heap
-- page of every line of its deal to learn that none was one: at 2,000,000 deals a plan's 35,000 locked
-- lines cost 41,000 heap pages and 1.1–1.6 s (bench/README.md "A plan's impact preview at this size").
-- Only adjustment lines enter this index, so a line without any is one probe of a small index.
CREATE INDEX commission_lines_adjustment_idx ON commission_lines (deal_id, user_id) WHERE kind = 'adjustment';
