-- Exact list totals without count(*), a change signal for cached API keys, an unlogged rate-limit table.

-- Deals per status, kept by triggers in the transaction that writes the deals. Rows are deltas that are
-- only ever inserted, never updated, so concurrent writers never wait on a shared counter row; readers
-- sum them (deals/list-query.ts), and compaction folds them into one row per status.
CREATE TABLE deal_counts (
  status  text NOT NULL,
  n       bigint NOT NULL
);

CREATE FUNCTION cts_deal_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO deal_counts (status, n) SELECT status, count(*) FROM new_deals GROUP BY status;
  RETURN NULL;
END $$;

CREATE FUNCTION cts_deal_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO deal_counts (status, n) SELECT status, -count(*) FROM old_deals GROUP BY status;
  RETURN NULL;
END $$;

CREATE FUNCTION cts_deal_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO deal_counts (status, n) VALUES (OLD.status, -1), (NEW.status, 1);
  RETURN NULL;
END $$;

CREATE FUNCTION cts_deal_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM deal_counts;
  RETURN NULL;
END $$;

-- Inserts and deletes once per statement (bulk writes); updates per row, and only the rows whose
-- status changed (recalculations rewrite totals of many deals and never fire it).
CREATE TRIGGER deals_count_insert AFTER INSERT ON deals
  REFERENCING NEW TABLE AS new_deals FOR EACH STATEMENT EXECUTE FUNCTION cts_deal_counts_insert();
CREATE TRIGGER deals_count_delete AFTER DELETE ON deals
  REFERENCING OLD TABLE AS old_deals FOR EACH STATEMENT EXECUTE FUNCTION cts_deal_counts_delete();
CREATE TRIGGER deals_count_update AFTER UPDATE OF status ON deals
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION cts_deal_counts_update();
CREATE TRIGGER deals_count_truncate AFTER TRUNCATE ON deals
  FOR EACH STATEMENT EXECUTE FUNCTION cts_deal_counts_truncate();

-- After the triggers: CREATE TRIGGER locks out writers of deals until this migration commits.
INSERT INTO deal_counts (status, n) SELECT status, count(*) FROM deals GROUP BY status;

-- Authentication caches keys (api-keys/key-cache.ts). Any change that can refuse or narrow a key bumps
-- this version, which PostgreSQL deployments read before trusting their cache, and notifies
-- cts_api_keys, which the embedded server hears inside the COMMIT. `last_used_at` writes do neither.
CREATE TABLE api_key_version (
  singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version    bigint NOT NULL
);
INSERT INTO api_key_version (singleton, version) VALUES (true, 0);

CREATE FUNCTION cts_api_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE api_key_version SET version = version + 1;
  PERFORM pg_notify('cts_api_keys', '');
  RETURN NULL;
END $$;

CREATE TRIGGER api_keys_changed
  AFTER UPDATE OF key_hash, environment, name, scope, mcp_access, expires_at, revoked_at OR DELETE OR TRUNCATE
  ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION cts_api_keys_changed();

-- The PostgreSQL rate-limit store rewrites a key's row on every request, and concurrent requests of one
-- key queue on that row. Unlogged, those commits wait for no WAL flush (3.5× the hits per second on one
-- key here). A database crash or failover empties the logs: every key starts a fresh window, as it does
-- after a Redis restart.
ALTER TABLE rate_limits SET UNLOGGED;

-- Several hits of one key in one statement (rate-limit/postgres-store.ts sends the hits that arrived
-- while the previous statement ran), decided one by one in order, exactly as separate statements would:
-- per hit, whether it was allowed, the log's size after it and the log's oldest time.
CREATE FUNCTION cts_rate_limit_hits(p_key text, p_times bigint[], p_limit integer, p_window bigint,
                                    p_expires timestamptz)
RETURNS TABLE (allowed boolean[], sizes integer[], oldest bigint[]) LANGUAGE plpgsql AS $$
DECLARE
  log bigint[];
  t bigint;
  verdicts boolean[] := '{}';
  counts integer[] := '{}';
  firsts bigint[] := '{}';
BEGIN
  INSERT INTO rate_limits AS r (key, hits, allowed, expires_at) VALUES (p_key, '{}', true, p_expires)
  ON CONFLICT (key) DO UPDATE SET expires_at = p_expires
  RETURNING r.hits INTO log;
  FOREACH t IN ARRAY p_times LOOP
    log := ARRAY(SELECT h FROM unnest(log) AS h WHERE h > t - p_window ORDER BY h);
    IF cardinality(log) < p_limit THEN
      log := log || t;
      verdicts := verdicts || true;
    ELSE
      verdicts := verdicts || false;
    END IF;
    counts := counts || cardinality(log);
    firsts := firsts || log[1];
  END LOOP;
  UPDATE rate_limits SET hits = log, allowed = verdicts[cardinality(verdicts)] WHERE key = p_key;
  RETURN QUERY SELECT verdicts, counts, firsts;
END $$;
