// A company of 10,000 people (issue #35), against the built code (`npm run build` first), PostgreSQL only:
//   BENCH_DATABASE_URL=postgres://… node bench/scale.mjs      a schema of its own, dropped after
// Seeded with plain SQL: 10,000 people in a 6-level tree (1 / 6 / 33 / 200 / 1,400 / 8,360; one reporting
// line each from 2025-01-01; levels 0–4 managers, level 5 reps, person 0 also an admin), 50 quarterly
// tiered plans each assigned to every 50th person of levels 3–5, BENCH_DEALS deals (default 2,000,000)
// closing over 2025–2026, credited to people of levels 3–5, one in ten split 60/40, each split's plan line
// (the explanation of one line the service computed, copied; the credit and quota columns beside it are
// generated from it, migration 024), status by hash: 20 % pending, 40 % approved, 40 % paid. Then, through
// the whole app (`inject`: sessions or the admin's key, visibility, validation, serialization, ETag, request
// log), BENCH_SAMPLES (default 40) sequential calls of each read
// people make most, after 3 warm-ups, the person changing every call: a rep's statement and deal list, a
// manager's team page (GET /users/statements, per_page 100, every page of a ~300-person team), the
// admin's deal list filtered and sorted, and the approval queue. Baseline per call, in the same run on
// the same database: the SQL it needs (its rows and sums, by the indexes there are) through the same
// Kysely and driver. Targets: every read p95 ≤ 100 ms. Then a plan's impact preview (below), within 2× of
// the SQL it needs. Payout runs at this size have their own bench (payout-runs.mjs: 10,000 people,
// 1,000,000 lines, against the same run's raw SQL).
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { benchApp, DATABASE_URL, load, openBenchDatabase, round, seconds } from "./lib/setup.mjs";

if (!DATABASE_URL) {
  console.log("scale: skipped, it runs on PostgreSQL only (set BENCH_DATABASE_URL)");
  process.exit(0);
}
const DEALS = Number(process.env.BENCH_DEALS ?? 2_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const WARM = 3;
const P95_TARGET_MS = 100;

const SIZES = [1, 6, 33, 200, 1400, 8360];
const START = [0];
for (const n of SIZES) START.push(START.at(-1) + n);
const USERS = START.at(-1);
const CREDITED_FROM = START[3];
const PLANS = 50;

const { openDatabase } = await load("db/connect.js");
const { migrate } = await load("db/migrate.js");
const { startSession, DEFAULT_SESSION_SETTINGS } = await load("sessions/index.js");
const { loadavg } = await import("node:os");

// BENCH_SCALE_SCHEMA=<name>: seed that schema once and keep it (later runs measure it again, no seeding).
const KEEP = process.env.BENCH_SCALE_SCHEMA;
const { database, cleanup } = KEEP ? await keptDatabase(KEEP) : await openBenchDatabase();
const db = database.db;
const user = (expr) => sql`'usr_s' || lpad((${sql.raw(expr)})::text, 6, '0')`;
const userId = (i) => `usr_s${String(i).padStart(6, "0")}`;
const planId = (p) => `plan_s${String(p).padStart(3, "0")}`;

async function seedPeopleAndPlans() {
  await sql`
    INSERT INTO users (id, name, email, role, active, created_at, updated_at)
    SELECT ${user("i")}, 'Person ' || i, 'person' || i || '@scale.example',
      CASE WHEN i = 0 THEN 'admin' WHEN i < ${START[5]} THEN 'manager' ELSE 'rep' END, true, now(), now()
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
  const now = new Date();
  for (let p = 0; p < PLANS; p++) {
    const terms = {
      currency: "USD",
      period: "quarter",
      quota: "250000",
      base_rate: null,
      tiers: JSON.stringify([
        { from_attainment: 0, rate: 0.05 + p / 10000 },
        { from_attainment: 0.5, rate: 0.08 },
        { from_attainment: 1, rate: 0.12 },
      ]),
      deal_type_multipliers: "{}",
      min_deal_amount: null,
      cap_per_period: null,
      effective_from: "2025-01-01",
      effective_to: null,
      clawback: null,
      override_levels: null,
    };
    await db
      .insertInto("comp_plans")
      .values({
        id: planId(p),
        kind: "standard",
        name: `Scale plan ${p}`,
        description: null,
        status: "active",
        version: 1,
        created_at: now,
        updated_at: now,
        ...terms,
      })
      .execute();
    await db
      .insertInto("comp_plan_versions")
      .values({ plan_id: planId(p), version: 1, created_at: now, ...terms })
      .execute();
  }
  await sql`
    INSERT INTO plan_assignments (id, plan_id, user_id, effective_from, created_at, updated_at)
    SELECT 'asg_s' || lpad(i::text, 6, '0'), 'plan_s' || lpad((i % ${PLANS})::text, 3, '0'), ${user("i")},
      date '2025-01-01', now(), now()
    FROM generate_series(${CREDITED_FROM}::int, ${USERS - 1}::int) AS i`.execute(db);
}

/** One plan line's explanation as the service writes it (a deal created through the app), to copy. */
async function explanationOfOneLine(app, key) {
  const res = await app.inject({
    method: "POST",
    url: "/api/v1/deals",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    payload: JSON.stringify({
      opportunity_name: "Template",
      arr_amount: 10000,
      close_date: "2025-01-15",
      owner_id: userId(CREDITED_FROM),
    }),
  });
  if (res.statusCode !== 201) throw new Error(`POST /deals: ${res.statusCode} ${res.body}`);
  const deal = res.json();
  const line = deal.commissions.find((l) => l.kind === "plan");
  if (!line) throw new Error("the template deal has no plan line");
  await sql`DELETE FROM deals WHERE id = ${deal.id}`.execute(db);
  return JSON.stringify(line.explanation);
}

/** Deals, splits and plan lines in slices of 100,000 deals (a statement each per table). */
async function seedDeals(explanation) {
  const span = USERS - CREDITED_FROM;
  const M = [0, 2654435761, 2246822519, 3266489917, 668265263, 374761393];
  const h = (k) => `((((i + 1)::bigint * ${M[k]}) % 4294967296) / 256)`;
  const g = (from, to) => sql`
    SELECT i, 'deal_s' || lpad(i::text, 8, '0') AS id,
      (100000 + ${sql.raw(h(1))} % 3900000) / 100.0 AS arr,
      date '2025-01-01' + (${sql.raw(h(2))} % 730)::int AS close_date,
      ${sql.raw(String(CREDITED_FROM))} + ${sql.raw(h(3))} % ${sql.raw(String(span))} AS a,
      ${sql.raw(String(CREDITED_FROM))} + (${sql.raw(h(3))} % ${sql.raw(String(span))} + 1 + ${sql.raw(h(4))} % ${sql.raw(String(span - 1))}) % ${sql.raw(String(span))} AS b,
      i % 10 = 0 AS split,
      CASE WHEN ${sql.raw(h(5))} % 10 < 2 THEN 'pending' WHEN ${sql.raw(h(5))} % 10 < 6 THEN 'approved' ELSE 'paid' END AS status,
      timestamptz '2025-01-01T09:00:00Z' + (i::double precision / ${DEALS}) * interval '730 days' AS created_at
    FROM generate_series(${from}::int, ${to}::int) AS i`;
  for (let from = 0; from < DEALS; from += 100_000) {
    const to = Math.min(DEALS, from + 100_000) - 1;
    await db.transaction().execute(async (tx) => {
      await sql`
        WITH g AS (${g(from, to)})
        INSERT INTO deals (id, opportunity_name, arr_amount, currency, deal_type, close_date, owner_id,
          splits_explicit, status, total_commission, approved_at, paid_at, created_at, updated_at)
        SELECT id, 'Opportunity ' || i, arr, 'USD', 'new_business', close_date, ${user("a")}, split, status,
          round(arr * 0.08, 2), CASE WHEN status <> 'pending' THEN close_date + interval '2 days' END,
          CASE WHEN status = 'paid' THEN close_date + interval '30 days' END, created_at, created_at
        FROM g`.execute(tx);
      await sql`
        WITH g AS (${g(from, to)}),
        s AS (
          SELECT id, close_date, status, arr, ${user("a")} AS user_id, a AS person, 0 AS position,
            CASE WHEN split THEN 60 ELSE 100 END AS percent FROM g
          UNION ALL
          SELECT id, close_date, status, arr, ${user("b")}, b, 1, 40 FROM g WHERE split
        ),
        splits AS (
          INSERT INTO deal_splits (deal_id, user_id, position, percent, close_date)
          SELECT id, user_id, position, percent, close_date FROM s
        )
        INSERT INTO commission_lines (id, deal_id, user_id, plan_id, plan_version, kind, period, amount, status,
          locked, explanation, calculated_at, created_at)
        SELECT 'com_s' || lpad(substr(id, 7), 8, '0') || position, id, user_id,
          'plan_s' || lpad((person % ${PLANS})::text, 3, '0'), 1, 'plan',
          extract(year FROM close_date)::int || '-Q' || extract(quarter FROM close_date)::int,
          round(arr * percent / 100 * 0.08, 2), status, status <> 'pending', ${explanation}::jsonb, now(), now()
        FROM s`.execute(tx);
    });
  }
  // What autovacuum would have done by now: the visibility map current (the team page's figures are an
  // index-only scan, migration 024) and every table's statistics, the 50 plans' too (unanalyzed, the
  // planner takes comp_plans for one row and reads plan_assignments by plan: 21 ms a team page instead of 2).
  const tables = ["users", "reporting_lines", "deals", "deal_splits", "commission_lines", "plan_assignments"];
  for (const table of [...tables, "comp_plans", "comp_plan_versions"])
    await sql`VACUUM ANALYZE ${sql.table(table)}`.execute(db);
}

async function keptDatabase(schema) {
  const admin = await openDatabase({ url: DATABASE_URL, poolSize: 1 });
  await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(admin.db);
  await admin.close();
  const database = await openDatabase({ url: DATABASE_URL, schema, poolSize: 10 });
  await migrate(database.db);
  return { database, cleanup: async () => {} };
}

const t0 = performance.now();
const fresh = Number((await sql`SELECT count(*) AS n FROM users`.execute(db)).rows[0].n) === 0;
if (fresh) await seedPeopleAndPlans();
const { app, key } = await benchApp(database, { scope: "admin", name: "scale" });
if (fresh) await seedDeals(await explanationOfOneLine(app, key));
const seeded = seconds(t0);
const lineCount = Number((await sql`SELECT count(*) AS n FROM commission_lines`.execute(db)).rows[0].n);
console.error(`seeded ${USERS} people, ${PLANS} plans, ${DEALS} deals, ${lineCount} lines in ${round(seeded)} s`);

const sessions = new Map();
async function cookieOf(id) {
  if (!sessions.has(id)) {
    const started = await startSession(db, id, new Date(), DEFAULT_SESSION_SETTINGS);
    sessions.set(id, `cts_session=${started.token}`);
  }
  return sessions.get(id);
}

async function get(url, who) {
  const headers = who === "admin" ? { authorization: `Bearer ${key}` } : { cookie: await cookieOf(who) };
  const res = await app.inject({ method: "GET", url: `/api/v1${url}`, headers });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.json();
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

/** `SAMPLES` timed calls of `call(i)` after WARM untimed ones; the person or filter moves with i. */
async function timed(call) {
  for (let i = 0; i < WARM; i++) await call(SAMPLES + i);
  const ms = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await call(i);
    ms.push(performance.now() - started);
  }
  // This process's CPU (the app and the calls into it, not the database's): what a call costs on a shared machine.
  const { user, system } = process.cpuUsage(cpu);
  return { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), cpu: (user + system) / 1000 / SAMPLES };
}

const rep = (i) => userId(START[5] + ((i * 7919) % SIZES[5]));
const manager = (i) => userId(START[2] + (i % SIZES[2]));
const PERIOD = "2026-Q2";
const rows = (q) => q.execute(db).then((r) => r.rows);

// The team of a manager: everyone under them, as the reporting lines say (recursive).
const teamOf = (id) => sql`
  WITH RECURSIVE t AS (
    SELECT u.id FROM users u WHERE u.manager_id = ${id}
    UNION ALL SELECT u.id FROM users u JOIN t ON u.manager_id = t.id
  ) SELECT id FROM t`;
const teamSize = (await rows(teamOf(manager(0)))).length;

const reads = [
  {
    name: "rep's statement (GET /users/{id}/statement)",
    api: (i) => get(`/users/${rep(i)}/statement?period=${PERIOD}`, rep(i)),
    sql: (i) =>
      Promise.all([
        rows(sql`SELECT l.*, d.opportunity_name, d.close_date, d.status AS deal_status FROM commission_lines l
          JOIN deals d ON d.id = l.deal_id WHERE l.user_id = ${rep(i)} AND l.period = ${PERIOD}
          ORDER BY d.close_date, l.id`),
        rows(sql`SELECT kind, status, sum(amount) FROM commission_lines WHERE user_id = ${rep(i)} AND period = ${PERIOD}
          GROUP BY kind, status`),
      ]),
  },
  {
    name: "rep's deals (GET /deals, first page of 25)",
    api: (i) => get("/deals?per_page=25", rep(i)),
    sql: (i) =>
      Promise.all([
        rows(sql`SELECT d.* FROM deals d WHERE EXISTS (SELECT 1 FROM deal_splits s WHERE s.deal_id = d.id AND s.user_id = ${rep(i)})
          ORDER BY d.created_at DESC, d.id DESC LIMIT 25`),
        rows(sql`SELECT count(*) FROM deal_splits WHERE user_id = ${rep(i)}`),
      ]),
  },
  {
    name: `manager's team page (GET /users/statements, ${teamSize} people, per_page 100)`,
    api: async (i) => {
      const first = await get(`/users/statements?period=${PERIOD}&per_page=100`, manager(i));
      const pages = Math.ceil(first.meta.total / 100);
      await Promise.all(
        Array.from({ length: pages - 1 }, (_, p) =>
          get(`/users/statements?period=${PERIOD}&per_page=100&page=${p + 2}`, manager(i)),
        ),
      );
    },
    // The team (its people by name), then their lines' sums by kind, status and currency (index user_id, period).
    sql: async (i) => {
      const people = await rows(sql`WITH t AS (${teamOf(manager(i))})
        SELECT u.id, u.name, u.role, u.manager_id FROM t JOIN users u ON u.id = t.id ORDER BY u.name, u.id`);
      await rows(sql`SELECT user_id, kind, status, currency, sum(amount), count(*) FROM commission_lines
        WHERE user_id = ANY(${people.map((p) => p.id)}::text[]) AND period = ${PERIOD} AND status <> 'void'
        GROUP BY user_id, kind, status, currency`);
    },
  },
  {
    name: "admin's deals, filtered and sorted (GET /deals?status=approved&sort=-total_commission)",
    api: (i) => get(`/deals?status=approved&sort=-total_commission&per_page=100&page=${1 + (i % 5)}`, "admin"),
    sql: (i) =>
      Promise.all([
        rows(sql`SELECT d.*, (SELECT json_agg(s) FROM deal_splits s WHERE s.deal_id = d.id) AS splits FROM deals d
          WHERE d.status = 'approved' ORDER BY d.total_commission DESC, d.id DESC LIMIT 100 OFFSET ${100 * (i % 5)}`),
        rows(sql`SELECT sum(n) FROM deal_counts WHERE status = 'approved'`),
      ]),
  },
  {
    name: "admin's deals of one owner in a half year (GET /deals?owner_id&close_date_from&close_date_to)",
    api: (i) =>
      get(`/deals?owner_id=${rep(i)}&close_date_from=2026-01-01&close_date_to=2026-06-30&sort=-arr_amount`, "admin"),
    sql: (i) =>
      Promise.all([
        rows(sql`SELECT d.* FROM deals d WHERE d.owner_id = ${rep(i)} AND d.close_date BETWEEN '2026-01-01' AND '2026-06-30'
          ORDER BY d.arr_amount DESC, d.id DESC LIMIT 25`),
        rows(
          sql`SELECT count(*) FROM deals WHERE owner_id = ${rep(i)} AND close_date BETWEEN '2026-01-01' AND '2026-06-30'`,
        ),
      ]),
  },
  {
    name: "approval queue (GET /deals?status=pending, 50 a page, newest first)",
    api: (i) => get(`/deals?status=pending&sort=-created_at&per_page=50&page=${1 + (i % 5)}`, "admin"),
    sql: (i) =>
      Promise.all([
        rows(sql`SELECT d.*, (SELECT json_agg(s) FROM deal_splits s WHERE s.deal_id = d.id) AS splits FROM deals d
          WHERE d.status = 'pending' ORDER BY d.created_at DESC, d.id DESC LIMIT 50 OFFSET ${50 * (i % 5)}`),
        rows(sql`SELECT sum(n) FROM deal_counts WHERE status = 'pending'`),
      ]),
  },
];

// A plan's impact preview (POST /comp-plans/{id}/impact, API.md §12): the plan of every 50th person of
// levels 3–5 (about 200 people, 44,000 lines), each sample a different plan, its rates raised. Computed
// within the call (the inline limit raised, as a deployment does with CTS_PLAN_IMPACT_INLINE_LINES), so
// the time is the computation's. Baseline: the SQL it cannot do without, the plan's people's credits
// (every split of theirs since their assignment, with its deal) and the plan's lines to compare with.
// Target: within 2× of that SQL. BENCH_IMPACT_SAMPLES (default 5) calls each, after one warm-up.
const IMPACT_SAMPLES = Number(process.env.BENCH_IMPACT_SAMPLES ?? 5);
const impactRead = {
  name: "a plan's impact preview (POST /comp-plans/{id}/impact, its rates raised)",
  api: async (i) => {
    const plan = planId(i % PLANS);
    const tiers = [
      { from_attainment: 0, rate: 0.06 },
      { from_attainment: 0.5, rate: 0.09 },
      { from_attainment: 1, rate: 0.13 },
    ];
    const res = await app.inject({
      method: "POST",
      url: `/api/v1/comp-plans/${plan}/impact`,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      payload: JSON.stringify({ tiers }),
    });
    if (res.statusCode !== 200) throw new Error(`POST impact: ${res.statusCode} ${res.body.slice(0, 300)}`);
    const { summary } = res.json();
    if (summary.lines === 0) throw new Error(`the impact of ${plan} computed no line`);
  },
  sql: (i) =>
    Promise.all([
      rows(sql`SELECT s.deal_id, s.user_id, s.position, s.percent, d.arr_amount, d.currency, d.deal_type, d.close_date,
          d.status, d.created_at FROM plan_assignments a JOIN deal_splits s ON s.user_id = a.user_id
          JOIN deals d ON d.id = s.deal_id
        WHERE a.plan_id = ${planId(i % PLANS)} AND s.close_date >= a.effective_from`),
      rows(sql`SELECT id, deal_id, user_id, period, amount, status, locked FROM commission_lines
        WHERE plan_id = ${planId(i % PLANS)} AND kind = 'plan' AND status <> 'void'`),
    ]),
};

/** Like `timed`, for a call that takes seconds: `n` samples after one warm-up. */
async function timedFew(call, n) {
  await call(n);
  const ms = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await call(i);
    ms.push(performance.now() - started);
  }
  return { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95) };
}

const results = [];
// BENCH_ONLY=<words>: only the reads whose name holds them (a profile of one).
const only = (r) => r.name.includes(process.env.BENCH_ONLY ?? "");
for (const read of reads.filter(only)) {
  const baseline = await timed(read.sql);
  const measured = await timed(read.api);
  results.push({ name: read.name, measured, baseline });
}
let impact;
if (only(impactRead)) {
  const { setImpactInlineLimit } = await load("comp-plans/impact-job.js");
  setImpactInlineLimit(1_000_000);
  const baseline = await timedFew(impactRead.sql, IMPACT_SAMPLES);
  const measured = await timedFew(impactRead.api, IMPACT_SAMPLES);
  impact = { name: impactRead.name, measured, baseline };
}
await app.close();
await database.close();
await cleanup();

const load_average = loadavg().map((l) => round(l, 1));
console.log(
  JSON.stringify({
    deals: DEALS,
    lines: lineCount,
    people: USERS,
    team: teamSize,
    seeded_s: round(seeded),
    load_average,
    results,
    impact,
  }),
);
console.log("\n| read | p50 | p95 | same-run SQL p50 | SQL p95 | p95 ratio (SQL ÷ API) | Node CPU a call |");
console.log("|---|---|---|---|---|---|---|");
for (const r of results) {
  console.log(
    `| ${r.name} | ${round(r.measured.p50)} ms | ${round(r.measured.p95)} ms | ${round(r.baseline.p50)} ms | ${round(r.baseline.p95)} ms | ${round(r.baseline.p95 / r.measured.p95, 2)} | ${round(r.measured.cpu)} ms |`,
  );
}
if (impact) {
  const ratio = impact.baseline.p50 / impact.measured.p50;
  console.log(
    `| ${impact.name}, ${IMPACT_SAMPLES} plans | ${round(impact.measured.p50)} ms | ${round(impact.measured.p95)} ms | ${round(impact.baseline.p50)} ms | ${round(impact.baseline.p95)} ms | p50 ratio ${round(ratio, 2)} |`,
  );
}
console.log(`\n${DEALS} deals, ${lineCount} lines, ${USERS} people; load average ${load_average.join(", ")}`);
for (const r of results) {
  console.log(`target: ${r.name} p95 ≤ ${P95_TARGET_MS} ms ${r.measured.p95 <= P95_TARGET_MS ? "met" : "MISSED"}`);
}
if (impact) {
  const ratio = impact.baseline.p50 / impact.measured.p50;
  console.log(
    `target: ${impact.name} within 2× of its SQL (p50 ratio ${round(ratio, 2)} ≥ 0.5) ${ratio >= 0.5 ? "met" : "MISSED"}`,
  );
}
