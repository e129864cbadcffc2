-- A job whose work is an answer (a large plan-change impact, API.md §12) stores it here for GET /jobs/{id}.
ALTER TABLE jobs ADD COLUMN result jsonb;
