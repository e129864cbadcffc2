// Override-line recalculation benchmark (API.md §16) against the built code (run `npm run build` first):
//   BENCH_DATABASE_URL=postgres://… node bench/overrides.mjs [--deals N]   PostgreSQL (a schema of its own)
//   node bench/overrides.mjs [--deals N]                                   embedded database in a temp dir
// Seeded with plain SQL: 10,000 users in a 6-level tree (2 / 10 / 50 / 250 / 1,250 / 8,438 people, one
// reporting line each from 2025-01-01), one override plan (levels 1–3) assigned to the first 200 managers
// (levels 0–2 and 138 of level 3), N pending deals over 2026 (default 1,000,000 on PostgreSQL, 50,000
// embedded; `--deals N` or BENCH_DEALS), each credited to someone of level 3–5, one in three split 60/40;
// and every deal's override lines at the plan's first rates (version 1), as the raw query computes them.
// Measured: the plan's rates edited (version 2, as a PATCH of its levels would) and the recalculation job
// of its `plan` target run to completion with the service's handler (user batches, then override
// batches by deal): every override line is rewritten with its new amount, its deal's total and updated_at
// move, and a `commission.calculated` event is written per line. Baseline (the target's, same run, same
// database): the least any recalculation must do — the same override amounts computed by one raw SQL
// statement (credits joined up the reporting lines in force on close_date with a recursive CTE to depth 5,
// Σ per manager and depth capped at the deal's amount, × the level's rate, Σ per manager rounded to the
// cent, into a scratch table), plus the rows the recalculation wrote written again with the cheapest raw
// SQL and nothing else (bench/lib/raw-rows.mjs, as `recalculate` does): the lines, the deals' totals and
// the events (into a scratch copy), 1,000 lines per transaction with their share of deals and events.
// Ratio = baseline time ÷ recalculation time; target ≥ 0.5×. Printed beside it, the narrow ratio: the raw
// computation alone, which writes nothing the service must write. Then the stored lines are checked
// against the scratch table: count, Σ amount, and lines that differ.
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { rawInserter, rawUpdater, scratchCopies } from "./lib/raw-rows.mjs";
import { load, openBenchDatabase, profiled, round, seconds } from "./lib/setup.mjs";

const flag = process.argv.indexOf("--deals");
const DEALS = Number(
  (flag >= 0 ? process.argv[flag + 1] : undefined) ??
    process.env.BENCH_DEALS ??
    (process.env.BENCH_DATABASE_URL ? 1_000_000 : 50_000),
);
if (!Number.isInteger(DEALS) || DEALS < 1)
  throw new Error(`--deals: a positive integer, not ${process.argv[flag + 1]}`);

// The tree: level k holds users [START[k], START[k + 1]); each reports to one of level k − 1, round robin.
const SIZES = [2, 10, 50, 250, 1250, 8438];
const START = [0];
for (const n of SIZES) START.push(START.at(-1) + n);
const USERS = START.at(-1);
const MANAGERS = 200; // users 0–199 hold the override plan
const CREDITED_FROM = START[3]; // deals credit people of levels 3–5
const PLAN_ID = "plan_bench_override";
const LEVELS_V1 = [
  { depth: 1, rate: "0.02" },
  { depth: 2, rate: "0.01" },
  { depth: 3, rate: "0.005" },
];
const LEVELS_V2 = [
  { depth: 1, rate: "0.03" },
  { depth: 2, rate: "0.015" },
  { depth: 3, rate: "0.0075" },
];

const { recalculateJobHandler } = await load("commissions/recalc/recalculate-job.js");
const { loadavg } = await import("node:os");

const { database, kind, cleanup } = await openBenchDatabase();
const db = database.db;
const user = (expr) => sql`'usr_b' || lpad((${sql.raw(expr)})::text, 6, '0')`;

async function seedOrganisation() {
  await sql`
    INSERT INTO users (id, name, email, role, active, created_at, updated_at)
    SELECT ${user("i")}, 'Person ' || i, 'person' || i || '@bench.example',
      CASE WHEN i < ${START[4]} THEN 'manager' ELSE 'rep' END, true, now(), now()
    FROM generate_series(0, ${USERS - 1}::int) AS i`.execute(db);
  const levels = SIZES.map((_, k) => `(${k}, ${START[k]}, ${SIZES[k]})`).join(", ");
  await sql`
    WITH lv (k, first, size) AS (VALUES ${sql.raw(levels)}),
    tree AS (
      SELECT i, p.first + (i - l.first) % p.size AS manager
      FROM generate_series(${START[1]}::int, ${USERS - 1}::int) AS i
      JOIN lv l ON i >= l.first AND i < l.first + l.size
      JOIN lv p ON p.k = l.k - 1
    ),
    lines AS (
      INSERT INTO reporting_lines (user_id, manager_id, effective_from)
      SELECT ${user("i")}, ${user("manager")}, date '2025-01-01' FROM tree
    )
    UPDATE users u SET manager_id = ${user("t.manager")} FROM tree t WHERE u.id = ${user("t.i")}`.execute(db);
  const terms = (levels) => ({
    currency: "USD",
    period: "quarter",
    quota: null,
    base_rate: null,
    tiers: "[]",
    deal_type_multipliers: "{}",
    min_deal_amount: null,
    cap_per_period: null,
    effective_from: "2025-01-01",
    effective_to: null,
    clawback: null,
    override_levels: JSON.stringify(levels),
  });
  const now = new Date();
  await db
    .insertInto("comp_plans")
    .values({
      id: PLAN_ID,
      kind: "override",
      name: "Bench override",
      description: null,
      status: "active",
      version: 1,
      created_at: now,
      updated_at: now,
      ...terms(LEVELS_V1),
    })
    .execute();
  await db
    .insertInto("comp_plan_versions")
    .values({ plan_id: PLAN_ID, version: 1, created_at: now, ...terms(LEVELS_V1) })
    .execute();
  await sql`
    INSERT INTO plan_assignments (id, plan_id, user_id, effective_from, created_at, updated_at)
    SELECT 'asg_b' || lpad(i::text, 6, '0'), ${PLAN_ID}, ${user("i")}, date '2025-01-01', now(), now()
    FROM generate_series(0, ${MANAGERS - 1}::int) AS i`.execute(db);
  return terms;
}

/** N pending deals and their splits, in slices of 100,000 (one statement each). */
async function seedDeals() {
  const span = USERS - CREDITED_FROM;
  // Multiplicative hashes of the deal number (a different odd multiplier each, their high bits): amounts,
  // dates and people spread evenly and independently.
  const M = [0, 2654435761, 2246822519, 3266489917, 668265263];
  const h = (k) => `((((i + 1)::bigint * ${M[k]}) % 4294967296) / 256)`;
  for (let from = 0; from < DEALS; from += 100_000) {
    const to = Math.min(DEALS, from + 100_000) - 1;
    await sql`
      WITH g AS (
        SELECT i, 'deal_b' || lpad(i::text, 8, '0') AS id,
          (100000 + ${sql.raw(h(1))} % 3900000) / 100.0 AS arr,
          date '2026-01-01' + (${sql.raw(h(2))} % 365)::int AS close_date,
          ${sql.raw(String(CREDITED_FROM))} + ${sql.raw(h(3))} % ${sql.raw(String(span))} AS a,
          ${sql.raw(String(CREDITED_FROM))} + (${sql.raw(h(3))} % ${sql.raw(String(span))} + 1 + ${sql.raw(h(4))} % ${sql.raw(String(span - 1))}) % ${sql.raw(String(span))} AS b,
          i % 3 = 0 AS split
        FROM generate_series(${from}::int, ${to}::int) AS i
      ),
      d AS (
        INSERT INTO deals (id, opportunity_name, arr_amount, currency, deal_type, close_date, owner_id,
          splits_explicit, status, total_commission, created_at, updated_at)
        SELECT id, 'Opportunity ' || i, arr, 'USD', 'new_business', close_date, ${user("a")}, split, 'pending', 0,
          now(), now()
        FROM g
      )
      INSERT INTO deal_splits (deal_id, user_id, position, percent, close_date)
      SELECT id, ${user("a")}, 0, CASE WHEN split THEN 60 ELSE 100 END, close_date FROM g
      UNION ALL
      SELECT id, ${user("b")}, 1, 40, close_date FROM g WHERE split`.execute(db);
  }
}

/**
 * The override lines of every pending deal at the plan's current rates, as one statement: each credit
 * walked up the reporting lines in force on its deal's close_date (depth ≤ 5), Σ credits per manager and
 * depth capped at the deal's amount, × the rate of that depth in the manager's override plan in force,
 * Σ per manager, rounded half away from zero to the cent (numeric round). `into` receives
 * (deal_id, user_id, plan_id, plan_version, period, amount).
 */
function rawOverrides(into) {
  return sql`
    WITH RECURSIVE credits AS (
      SELECT d.id AS deal_id, d.arr_amount, d.close_date, d.currency, s.user_id, d.arr_amount * s.percent / 100 AS credit
      FROM deals d JOIN deal_splits s ON s.deal_id = d.id
      WHERE d.status = 'pending'
    ),
    up (deal_id, arr_amount, close_date, currency, credit, manager_id, depth) AS (
      SELECT c.deal_id, c.arr_amount, c.close_date, c.currency, c.credit, r.manager_id, 1
      FROM credits c JOIN reporting_lines r ON r.user_id = c.user_id AND r.effective_from <= c.close_date
        AND (r.effective_to IS NULL OR c.close_date <= r.effective_to)
      WHERE r.manager_id IS NOT NULL
      UNION ALL
      SELECT u.deal_id, u.arr_amount, u.close_date, u.currency, u.credit, r.manager_id, u.depth + 1
      FROM up u JOIN reporting_lines r ON r.user_id = u.manager_id AND r.effective_from <= u.close_date
        AND (r.effective_to IS NULL OR u.close_date <= r.effective_to)
      WHERE r.manager_id IS NOT NULL AND u.depth < 5
    ),
    per_depth AS (
      SELECT deal_id, close_date, currency, manager_id, depth, least(sum(credit), min(arr_amount)) AS credit
      FROM up GROUP BY deal_id, close_date, currency, manager_id, depth
    )
    INSERT INTO ${sql.raw(into)}
    SELECT pd.deal_id, pd.manager_id, p.id, p.version,
      to_char(pd.close_date, 'YYYY') || '-Q' || extract(quarter FROM pd.close_date),
      round(sum(pd.credit * (lv.value ->> 'rate')::numeric), 2)
    FROM per_depth pd
    JOIN plan_assignments a ON a.user_id = pd.manager_id AND a.effective_from <= pd.close_date
      AND (a.effective_to IS NULL OR pd.close_date <= a.effective_to)
    JOIN comp_plans p ON p.id = a.plan_id AND p.kind = 'override' AND p.status = 'active' AND p.currency = pd.currency
      AND p.effective_from <= pd.close_date AND (p.effective_to IS NULL OR pd.close_date <= p.effective_to)
    CROSS JOIN LATERAL jsonb_array_elements(p.override_levels) AS lv
    WHERE (lv.value ->> 'depth')::int = pd.depth
    GROUP BY pd.deal_id, pd.manager_id, p.id, p.version, pd.close_date`;
}

const OLD_EXPLANATION = JSON.stringify({ summary: "seeded at the plan's first rates" });

let t0 = performance.now();
const terms = await seedOrganisation();
await seedDeals();
console.error(
  `${kind}: seeded ${USERS} users, ${MANAGERS} plan holders, ${DEALS} deals in ${seconds(t0).toFixed(1)} s`,
);

// The lines as they stand before the edit (version 1's rates), written raw: the recalculation rewrites them.
t0 = performance.now();
await sql`CREATE TEMPORARY TABLE seed_lines (deal_id text, user_id text, plan_id text, plan_version int, period text,
  amount numeric)`.execute(db);
await rawOverrides("seed_lines").execute(db);
await sql`
  INSERT INTO commission_lines (id, deal_id, user_id, plan_id, plan_version, kind, period, amount, status, explanation,
    calculated_at, created_at)
  SELECT 'com_b' || lpad((row_number() OVER ())::text, 9, '0'), deal_id, user_id, plan_id, plan_version, 'override',
    period, amount, 'pending', ${OLD_EXPLANATION}::jsonb, now(), now()
  FROM seed_lines`.execute(db);
await sql`UPDATE deals d SET total_commission = t.total FROM (SELECT deal_id, sum(amount) AS total FROM seed_lines
  GROUP BY deal_id) t WHERE d.id = t.deal_id`.execute(db);
await sql`DROP TABLE seed_lines`.execute(db);
const seeded = Number(
  (await sql`SELECT count(*) AS n FROM commission_lines WHERE kind = 'override'`.execute(db)).rows[0].n,
);
// Planner statistics, as a running deployment has them (autovacuum), and clean pages for both sides.
for (const table of ["users", "reporting_lines", "deals", "deal_splits", "commission_lines", "plan_assignments"])
  await sql`VACUUM ANALYZE ${sql.table(table)}`.execute(db);
console.error(`seeded ${seeded} override lines at version 1's rates in ${seconds(t0).toFixed(1)} s`);

// The edit: version 2's rates (what the plan service writes for a PATCH of override_levels).
const now = new Date();
await db
  .updateTable("comp_plans")
  .set({ version: 2, updated_at: now, override_levels: JSON.stringify(LEVELS_V2) })
  .where("id", "=", PLAN_ID)
  .execute();
await db
  .insertInto("comp_plan_versions")
  .values({ plan_id: PLAN_ID, version: 2, created_at: now, ...terms(LEVELS_V2) })
  .execute();

// Baseline: the raw computation of every line at version 2's rates, into a scratch table.
await sql`CREATE TABLE bench_override_lines (deal_id text, user_id text, plan_id text, plan_version int,
  period text, amount numeric)`.execute(db);
t0 = performance.now();
await rawOverrides("bench_override_lines").execute(db);
const rawSeconds = seconds(t0);
const rawLines = Number((await sql`SELECT count(*) AS n FROM bench_override_lines`.execute(db)).rows[0].n);
console.error(`raw SQL: ${rawLines} lines in ${rawSeconds.toFixed(1)} s`);

// Measured: the recalculation job of the plan target, run to completion with the service's handler.
const since = new Date();
let progress = 0;
const job = {
  id: "job_bench_override",
  payload: { targets: [{ type: "plan", plan_id: PLAN_ID }], env: "bench" },
  total: null,
};
const tools = {
  db,
  now: () => new Date(),
  progress: async (n) => {
    progress = n;
  },
};
t0 = performance.now();
await profiled("overrides", () => recalculateJobHandler(job, tools));
const recalcSeconds = seconds(t0);
console.error(`recalculation: ${progress} lines written in ${recalcSeconds.toFixed(1)} s`);

// The rest of the baseline: the rows the recalculation wrote, written again raw (same values, same sizes).
const LINE_COLUMNS = [
  "id",
  "plan_id",
  "plan_version",
  "period",
  "amount",
  "status",
  "explanation",
  "explanation_digest",
  "calculated_at",
];
// Read a group at a time, untimed (2M lines with explanations and their events do not fit in one heap):
// first the ids each table's rows have, in id order, then each group's share by id.
const sources = {
  lines: { table: "commission_lines", columns: LINE_COLUMNS, since: "calculated_at", ids: [] },
  deals: { table: "deals", columns: ["id", "total_commission", "updated_at"], since: "updated_at", ids: [] },
  events: { table: "events", columns: null, since: "created_at", ids: [] },
};
for (const source of Object.values(sources)) {
  const { rows } = await sql`SELECT id FROM ${sql.table(source.table)} WHERE ${sql.ref(source.since)} >= ${since}
    ORDER BY id`.execute(db);
  source.ids = rows.map((r) => r.id);
}
const GROUPS = Math.max(1, Math.ceil(sources.lines.ids.length / 1000));
/** Group k's share of one table's rows. */
async function groupRows(name, k) {
  const { table, columns, ids } = sources[name];
  const part = ids.slice(Math.floor((k * ids.length) / GROUPS), Math.floor(((k + 1) * ids.length) / GROUPS));
  if (part.length === 0) return [];
  return db
    .selectFrom(table)
    .$if(columns === null, (q) => q.selectAll())
    .$if(columns !== null, (q) => q.select(columns))
    .where("id", "in", part)
    .orderBy("id")
    .execute();
}
await scratchCopies(db, ["events"]);
const writeLines = await rawUpdater(db, "commission_lines", LINE_COLUMNS);
const writeDeals = await rawUpdater(db, "deals", sources.deals.columns);
const writeEvents = await rawInserter(db, "events", "bench_events");
let rawWritesSeconds = 0;
for (let k = 0; k < GROUPS; k++) {
  const group = {
    lines: await groupRows("lines", k),
    deals: await groupRows("deals", k),
    events: await groupRows("events", k),
  };
  t0 = performance.now();
  await db.transaction().execute(async (tx) => {
    await writeLines(tx, group.lines);
    await writeDeals(tx, group.deals);
    await writeEvents(tx, group.events);
  });
  rawWritesSeconds += seconds(t0);
}
const [lineRows, dealRows, eventRows] = [sources.lines, sources.deals, sources.events].map((s) => s.ids);

console.error(
  `raw writes: ${lineRows.length} lines, ${dealRows.length} deals, ${eventRows.length} events in ${rawWritesSeconds.toFixed(1)} s`,
);

// The two results: count and Σ amount, every line's amount, plan version and period.
const stored = (
  await sql`SELECT count(*) AS n, trim_scale(sum(amount))::text AS total, count(*) FILTER (WHERE calculated_at >= ${since}) AS rewritten
    FROM commission_lines WHERE kind = 'override' AND status = 'pending'`.execute(db)
).rows[0];
const raw = (
  await sql`SELECT count(*) AS n, trim_scale(sum(amount))::text AS total FROM bench_override_lines`.execute(db)
).rows[0];
const differ = Number(
  (
    await sql`SELECT count(*) AS n FROM bench_override_lines b
      FULL JOIN (SELECT deal_id, user_id, plan_id, plan_version, period, amount FROM commission_lines
        WHERE kind = 'override' AND status = 'pending') l USING (deal_id, user_id)
      WHERE l.amount IS DISTINCT FROM b.amount OR l.plan_version IS DISTINCT FROM b.plan_version
        OR l.period IS DISTINCT FROM b.period`.execute(db)
  ).rows[0].n,
);
await database.close();
await cleanup();

const lines = Number(stored.n);
const equal = lines === Number(raw.n) && stored.total === raw.total && differ === 0;
const figures = {
  database: kind,
  deals: DEALS,
  users: USERS,
  plan_holders: MANAGERS,
  override_lines: lines,
  rewritten: Number(stored.rewritten),
  recalculation_s: round(recalcSeconds, 2),
  lines_per_s: round(lines / recalcSeconds, 0),
  raw_sql_s: round(rawSeconds, 2),
  raw_writes_s: round(rawWritesSeconds, 2),
  rows_written: { lines: lineRows.length, deals: dealRows.length, events: eventRows.length },
  baseline_lines_per_s: round(rawLines / (rawSeconds + rawWritesSeconds), 0),
  ratio: round((rawSeconds + rawWritesSeconds) / recalcSeconds, 2),
  narrow_raw_lines_per_s: round(rawLines / rawSeconds, 0),
  narrow_ratio: round(rawSeconds / recalcSeconds, 2),
  stored: { lines, total: stored.total },
  raw: { lines: Number(raw.n), total: raw.total },
  lines_differing: differ,
  load: loadavg().map((l) => round(l, 1)),
};
console.log(JSON.stringify(figures));
console.log(
  "\n| date | node | database | pending deals | users | override lines | recalculation lines/s | raw SQL + same rows lines/s | ratio (≥ 0.5) | raw SQL alone lines/s | narrow ratio | equal (count, Σ, each line) |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
console.log(
  `| ${new Date().toISOString().slice(0, 10)} | ${process.version} | ${kind} | ${DEALS} | ${USERS} | ${lines} | ${figures.lines_per_s} | ${figures.baseline_lines_per_s} | ${figures.ratio} | ${figures.narrow_raw_lines_per_s} | ${figures.narrow_ratio} | ${equal ? "yes" : `**no** (${lines} vs ${raw.n} lines, Σ ${stored.total} vs ${raw.total}, ${differ} differ)`} |`,
);
console.log(
  `\nresults equal: ${equal ? "yes" : "NO"} (${lines} lines, Σ ${stored.total}; raw ${raw.n} lines, Σ ${raw.total}; ${differ} lines differ; ${figures.rewritten} rewritten)`,
);
console.log(
  `target: override recalculation ≥ 0.5× the raw SQL computation plus the same rows written raw ${figures.ratio >= 0.5 ? "met" : "MISSED"}`,
);
if (!equal || Number(stored.rewritten) !== lines) process.exitCode = 1;
