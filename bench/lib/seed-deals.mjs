// N deals for bench/list-deals.mjs, written with plain SQL (a few statements, seconds for 100k): 1k reps,
// deals created one second apart, statuses 3/10 pending, 3/10 approved, 1/10 rejected, 1/10 disputed,
// 2/10 paid; one split per deal (1 in 10 split 60/40 with the next rep). Then VACUUM ANALYZE, as
// autovacuum would have done on a database that has been running (PGlite has no autovacuum).
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { seconds } from "./setup.mjs";

const REPS = 1000;
const rep = (expr) => sql`'usr_bench' || lpad((${sql.raw(expr)})::text, 5, '0')`;

export async function seedDeals(db, n) {
  const t0 = performance.now();
  await sql`
    INSERT INTO users (id, name, email, role, active, created_at, updated_at)
    SELECT ${rep("i")}, 'Rep ' || i, 'rep' || i || '@bench.example', 'rep', true, now(), now()
    FROM generate_series(0, ${REPS - 1}) AS i`.execute(db);
  await sql`
    INSERT INTO deals (id, external_id, opportunity_name, arr_amount, currency, deal_type, close_date, owner_id,
      splits_explicit, status, total_commission, approved_at, paid_at, created_at, updated_at)
    SELECT 'deal_b' || lpad(i::text, 8, '0'), 'crm-' || i, 'Opportunity ' || i, a.amount, 'USD',
      CASE WHEN i % 5 = 0 THEN 'expansion' ELSE 'new_business' END, date '2026-01-01' + (i % 365),
      ${rep(`i % ${REPS}`)}, i % 10 = 0, s.status, round(a.amount * 0.08, 2),
      CASE WHEN s.status IN ('approved', 'disputed', 'paid') THEN s.at END,
      CASE WHEN s.status = 'paid' THEN s.at END, s.at, s.at
    FROM generate_series(0, ${n - 1}) AS i,
      LATERAL (SELECT 1000 + (i * 7919) % 39000 + (i % 100) / 100.0 AS amount) AS a,
      LATERAL (SELECT (ARRAY['pending', 'pending', 'pending', 'approved', 'approved', 'approved', 'rejected',
                             'disputed', 'paid', 'paid'])[1 + (i * 7) % 10] AS status,
                      timestamptz '2026-01-01T00:00:00Z' + i * interval '1 second' AS at) AS s`.execute(db);
  await sql`
    INSERT INTO deal_splits (deal_id, user_id, position, percent, close_date)
    SELECT id, owner_id, 0, CASE WHEN splits_explicit THEN 60 ELSE 100 END, close_date FROM deals`.execute(db);
  await sql`
    INSERT INTO deal_splits (deal_id, user_id, position, percent, close_date)
    SELECT id, ${rep(`(substr(id, 7)::int + 1) % ${REPS}`)}, 1, 40, close_date FROM deals WHERE splits_explicit`.execute(
    db,
  );
  for (const table of ["users", "deals", "deal_splits"]) await sql`VACUUM ANALYZE ${sql.table(table)}`.execute(db);
  const approved = await db
    .selectFrom("deals")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("status", "=", "approved")
    .executeTakeFirstOrThrow();
  const seedSeconds = seconds(t0);
  console.error(`seeded ${n} deals (${approved.n} approved) with plain SQL in ${seedSeconds.toFixed(1)} s`);
  return { deals: n, approved: Number(approved.n), seed_s: seedSeconds };
}
