// payout-runs: creating and finalizing a payout run (API.md §13) over many approved lines, against the same
// work done as raw SQL in the same run, while a probe asks the server for /healthz every BENCH_PROBE_MS.
//
// Seeds, with plain SQL, BENCH_USERS reps (default 10,000) and BENCH_LINES approved lines (default 100,000
// embedded, 1,000,000 with BENCH_DATABASE_URL): half as many approved deals, each with a plan line and a
// spiff line of its owner. Then, before the server starts, the baseline: in one transaction rolled back, the
// same selection and netting as `INSERT … SELECT … GROUP BY` into the payees table plus an `UPDATE` of the
// lines' run (create), then the `UPDATE`s of lines and deals to paid (finalize); then VACUUM, so the API's
// run meets tables as clean as the baseline's did. Then the real `cts serve` on that database: `POST /payout-runs` and `POST /payout-runs/{id}/finalize`, timed from the client.
// Target: each ≥ 0.5× the speed of its baseline (ratio = baseline time ÷ API time); /healthz p99 ≤ 50 ms
// during both on the embedded database. BENCH_CPU_PROF=<dir> profiles the server (written when it stops).
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { benchDeployment, freePort } from "./lib/deployment.mjs";
import { loadAverage } from "./lib/http.mjs";
import { load } from "./lib/setup.mjs";

const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const LINES = Number(process.env.BENCH_LINES ?? (DATABASE_URL ? 1_000_000 : 100_000));
const DEALS = Math.ceil(LINES / 2);
const PROBE_MS = Number(process.env.BENCH_PROBE_MS ?? 10);
const root = fileURLToPath(new URL("..", import.meta.url));
const round = (n, digits = 1) => Number(n.toFixed(digits));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const { openDatabase } = await load("db/connect.js");
const { migrate } = await load("db/migrate.js");
const { createKey } = await load("api-keys/create.js");
const { makeCtx, OWNER } = await load("context.js");

const { env, kind, cleanup } = await benchDeployment("cts-bench-payout-runs-", "warn");
const rep = (expr) => sql`'usr_bench' || lpad((${sql.raw(expr)})::text, 6, '0')`;

// An adjustment-shaped explanation (the response schema's): the lines are written here, not computed.
const EXPLANATION = JSON.stringify({
  summary: "Seeded for the benchmark",
  reason: "bench",
  author: { key_id: null, name: "bench" },
  period: "2026-Q1",
  amount: 0,
});

async function seed(db) {
  const t0 = performance.now();
  await sql`
    INSERT INTO users (id, name, email, role, active, created_at, updated_at, payroll_id)
    SELECT ${rep("i")}, 'Rep ' || i, 'rep' || i || '@bench.example', 'rep', true, now(), now(), 'P' || i
    FROM generate_series(0, ${USERS - 1}) AS i`.execute(db);
  await sql`
    INSERT INTO deals (id, opportunity_name, arr_amount, currency, deal_type, close_date, owner_id, status,
      total_commission, approved_at, created_at, updated_at)
    SELECT 'deal_b' || lpad(i::text, 8, '0'), 'Opportunity ' || i, 10000, 'USD', 'new_business',
      date '2026-01-01' + (i % 300), ${rep(`i % ${USERS}`)}, 'approved', 0,
      timestamptz '2026-01-02T00:00:00Z' + (i % 300) * interval '1 day', now(), now()
    FROM generate_series(0, ${DEALS - 1}) AS i`.execute(db);
  await sql`
    INSERT INTO commission_lines (id, deal_id, user_id, spiff_id, kind, period, amount, status, locked,
      explanation, calculated_at, created_at)
    SELECT 'com_b' || k.kind || lpad(i::text, 8, '0'), 'deal_b' || lpad(i::text, 8, '0'), ${rep(`i % ${USERS}`)},
      CASE WHEN k.kind = 'spiff' THEN 'spiff_bench' END, k.kind, '2026-Q1',
      CASE WHEN k.kind = 'plan' THEN 800 + (i % 400) + (i % 100) / 100.0 ELSE 50 END,
      'approved', true, ${EXPLANATION}, now(), now()
    FROM generate_series(0, ${DEALS - 1}) AS i, (VALUES ('plan'), ('spiff')) AS k (kind)
    WHERE k.kind = 'plan' OR i * 2 + 1 < ${LINES}`.execute(db);
  for (const table of ["users", "deals", "commission_lines"]) await sql`VACUUM ANALYZE ${sql.table(table)}`.execute(db);
  console.error(
    `${kind}: seeded ${USERS} users, ${DEALS} deals, ${LINES} lines in ${round((performance.now() - t0) / 1000)} s`,
  );
}

/** The same work as raw SQL, timed, in a transaction rolled back: what the API's create and finalize do. */
async function baseline(db) {
  const out = {};
  await db
    .transaction()
    .execute(async (tx) => {
      let t0 = performance.now();
      await sql`INSERT INTO payout_runs (id, status, through, pay_date, max_recovery_percent, period_start,
          period_end, created_at, created_by)
        VALUES ('prun_baseline', 'draft', ${day(0)}, ${day(1)}, 100, ${day(0)}, ${day(0)}, now(), 'bench')`.execute(tx);
      await sql`UPDATE commission_lines l SET payout_run_id = 'prun_baseline' FROM deals d
        WHERE d.id = l.deal_id AND l.status = 'approved' AND l.payout_run_id IS NULL
          AND l.kind IN ('plan', 'spiff', 'override', 'adjustment', 'clawback')
          AND d.status IN ('approved', 'paid', 'cancelled') AND d.approved_at::date <= ${day(0)}`.execute(tx);
      await sql`INSERT INTO payout_run_payees (run_id, user_id, currency, name, email, external_id, payroll_id,
          gross_plan, gross_spiff, line_count, lines_total, positive_total, deficit_brought_forward, recovery_cap,
          recovered, net_pay, deficit_carried_forward)
        SELECT 'prun_baseline', u.id, l.currency, u.name, u.email, u.external_id, u.payroll_id,
          sum(l.amount) FILTER (WHERE l.kind = 'plan'), sum(l.amount) FILTER (WHERE l.kind = 'spiff'), count(*),
          sum(l.amount), sum(l.amount) FILTER (WHERE l.amount > 0), 0, sum(l.amount) FILTER (WHERE l.amount > 0),
          0, greatest(sum(l.amount), 0), 0
        FROM commission_lines l JOIN users u ON u.id = l.user_id
        WHERE l.payout_run_id = 'prun_baseline' GROUP BY u.id, l.currency`.execute(tx);
      out.create_ms = performance.now() - t0;
      t0 = performance.now();
      await sql`UPDATE payout_runs SET status = 'finalized', finalized_at = now() WHERE id = 'prun_baseline'`.execute(
        tx,
      );
      await sql`UPDATE commission_lines SET status = 'paid' WHERE payout_run_id = 'prun_baseline'`.execute(tx);
      await sql`UPDATE deals d SET status = 'paid', paid_at = now(), updated_at = now()
        WHERE d.status = 'approved' AND d.id IN (SELECT deal_id FROM commission_lines WHERE payout_run_id = 'prun_baseline')
          AND NOT EXISTS (SELECT 1 FROM commission_lines o WHERE o.deal_id = d.id AND o.status NOT IN ('paid', 'void'))`.execute(
        tx,
      );
      out.finalize_ms = performance.now() - t0;
      throw new Error("rollback");
    })
    .catch((err) => {
      if (err.message !== "rollback") throw err;
    });
  return out;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });
let port = 0;
function call(method, path, { key, body } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(payload ? { "content-type": "application/json" } : {}),
    };
    const req = request({ host: "127.0.0.1", port, path, method, headers, agent }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString("utf8"), ms: performance.now() - t0 }),
      );
    });
    req.on("error", reject);
    req.end(payload);
  });
}

function probeHealth() {
  const samples = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const at = performance.now();
      const r = await call("GET", "/healthz");
      if (r.status !== 200) throw new Error(`/healthz: ${r.status}`);
      samples.push([at, r.ms]);
      const wait = PROBE_MS - (performance.now() - at);
      if (wait > 0) await sleep(wait);
    }
  })();
  return {
    during(from, to) {
      const ms = samples
        .filter(([at]) => at >= from && at <= to)
        .map(([, m]) => m)
        .sort((a, b) => a - b);
      const at = (p) => ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))];
      return ms.length === 0
        ? { n: 0 }
        : { n: ms.length, p50: round(at(50)), p99: round(at(99)), max: round(ms.at(-1)) };
    },
    stop: async () => {
      running = false;
      await done;
    },
  };
}

let server;
try {
  if (!DATABASE_URL) mkdirSync(env.CTS_DATA_DIR, { recursive: true, mode: 0o700 });
  const database = await openDatabase(
    DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: join(env.CTS_DATA_DIR, "pgdata") },
  );
  await migrate(database.db);
  await seed(database.db);
  const base = await baseline(database.db);
  // The baseline's rolled-back row versions would otherwise sit in the pages the API then updates (and
  // only its run pays for them): both start from the same clean tables.
  for (const table of ["users", "deals", "commission_lines"])
    await sql`VACUUM ANALYZE ${sql.table(table)}`.execute(database.db);
  const { key } = await createKey(makeCtx(database.db, env.CTS_ENV, OWNER), { name: "bench", scope: "admin" });
  await database.close();

  port = await freePort();
  const prof = process.env.BENCH_CPU_PROF;
  const flags = prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : [];
  server = spawn(process.execPath, [...flags, join(root, "dist/cli/main.js"), "serve"], {
    cwd: root,
    env: { ...env, CTS_PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let serverErr = "";
  server.stderr.on("data", (c) => {
    serverErr += c;
  });
  const exited = new Promise((resolve) => server.on("exit", resolve));
  for (let i = 0; ; i++) {
    if (server.exitCode !== null)
      throw new Error(`cts serve exited with ${server.exitCode}: ${serverErr.slice(-2000)}`);
    try {
      if ((await call("GET", "/healthz")).status === 200) break;
    } catch {}
    if (i > 600) throw new Error("cts serve did not answer /healthz within 60 s");
    await sleep(100);
  }
  const health = probeHealth();
  await sleep(1000);
  const idle = health.during(0, performance.now());
  let from = performance.now();
  const created = await call("POST", "/api/v1/payout-runs", { key, body: { through: day(0), pay_date: day(1) } });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text.slice(0, 300)}`);
  const run = JSON.parse(created.text);
  const createHealth = health.during(from, performance.now());
  await sleep(500);
  from = performance.now();
  const finalized = await call("POST", `/api/v1/payout-runs/${run.id}/finalize`, { key });
  if (finalized.status !== 200) throw new Error(`finalize: ${finalized.status} ${finalized.text.slice(0, 300)}`);
  const finalizeHealth = health.during(from, performance.now());
  await health.stop();
  const lines = run.totals.reduce((n, t) => n + t.lines, 0);
  if (lines !== LINES) throw new Error(`the run holds ${lines} lines, not ${LINES}`);

  const load = loadAverage();
  const date = new Date().toISOString().slice(0, 10);
  const health_ = (h) => (h.n ? `${h.p50} / ${h.p99} / ${h.max} ms (${h.n})` : "— (0)");
  console.log(
    `\npayout-runs (${kind}; ${USERS} users, ${LINES} approved lines, ${run.totals.reduce((n, t) => n + t.payees, 0)} payees; load ${load}; /healthz idle ${health_(idle)})`,
  );
  console.log(
    "| date | database | lines | step | API | same-run raw SQL | ratio (≥ 0.5) | /healthz p50 / p99 / max | p99 ≤ 50 ms? |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const [step, api, raw, h] of [
    ["create", created.ms, base.create_ms, createHealth],
    ["finalize", finalized.ms, base.finalize_ms, finalizeHealth],
  ]) {
    console.log(
      `| ${date} | ${kind} | ${LINES} | ${step} | ${round(api / 1000, 2)} s | ${round(raw / 1000, 2)} s | ${round(raw / api, 2)} | ${health_(h)} | ${h.p99 <= 50 ? "yes" : "**no**"} |`,
    );
  }
  server.kill("SIGTERM");
  await exited;
} finally {
  if (server && server.exitCode === null) server.kill("SIGKILL");
  agent.destroy();
  await cleanup();
}
