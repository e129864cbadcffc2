-- Every answered request writes a request_logs row (request-logs/writer.ts), and each index is a B-tree
-- insert per row: on the embedded database (bench/README.md "Per-request cost", 2026-11-29) the
-- (key_id, created_at) index cost about a quarter of the row's insert. GET /request-logs reads newest
-- first through request_logs_created_idx; a key_id filter now walks that index and filters (its count
-- is a scan, as the user_id, status and unfiltered counts already are). An admin's occasional read pays
-- for it instead of every request.
DROP INDEX request_logs_key_idx;
