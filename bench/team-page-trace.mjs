// Every statement one team page runs, timed at the driver (pg's Client#query), against the schema
// bench/scale.mjs keeps (`npm run build` first):
//   BENCH_DATABASE_URL=postgres://… BENCH_SCALE_SCHEMA=scale_main node bench/team-page-trace.mjs
// The first level-2 manager's team page (GET /users/statements?period=2026-Q2&per_page=100), each of its
// pages called one at a time TRACE_ROUNDS times (default 20) after 3 warm-ups; per page, the median of
// each statement's time and of the whole request. What the wall time of a page holds beyond its statements
// is the app's own work (and, on a shared machine, waiting for a CPU).
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { benchApp, DATABASE_URL, load, round } from "./lib/setup.mjs";

const SCHEMA = process.env.BENCH_SCALE_SCHEMA;
if (!DATABASE_URL || !SCHEMA) {
  console.log(
    "team-page-trace: skipped, it reads bench/scale.mjs's kept schema (BENCH_DATABASE_URL, BENCH_SCALE_SCHEMA)",
  );
  process.exit(0);
}
const ROUNDS = Number(process.env.TRACE_ROUNDS ?? 20);
const { openDatabase } = await load("db/connect.js");
const { startSession, DEFAULT_SESSION_SETTINGS } = await load("sessions/index.js");

let trace = null;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, ...rest) {
  const result = query.call(this, config, ...rest);
  if (!trace || typeof result?.then !== "function") return result;
  const text = (typeof config === "string" ? config : config.text).replace(/\s+/g, " ").trim();
  const started = performance.now();
  const entry = { text, ms: 0 };
  trace.push(entry);
  return result.then((r) => {
    entry.ms = performance.now() - started;
    entry.rows = r.rowCount;
    return r;
  });
};

const database = await openDatabase({ url: DATABASE_URL, schema: SCHEMA, poolSize: 10 });
const { app } = await benchApp(database, { scope: "read", name: "trace" });
const manager = "usr_s000007";
const { token } = await startSession(database.db, manager, new Date(), DEFAULT_SESSION_SETTINGS);
const page = async (n) => {
  const res = await app.inject({
    method: "GET",
    url: `/api/v1/users/statements?period=2026-Q2&per_page=100&page=${n}`,
    headers: { cookie: `cts_session=${token}` },
  });
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.json();
};
const pages = Math.ceil((await page(1)).meta.total / 100);
for (let i = 0; i < 3; i++) for (let n = 1; n <= pages; n++) await page(n);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load0 = loadavg()[0];
for (let n = 1; n <= pages; n++) {
  const runs = [];
  for (let r = 0; r < ROUNDS; r++) {
    trace = [];
    const started = performance.now();
    await page(n);
    runs.push({ wall: performance.now() - started, statements: trace });
    trace = null;
  }
  // Statements by their text (a request log flush lands in some runs only): the median of the runs holding it.
  const keys = [...new Set(runs.flatMap((r) => r.statements.map((st) => st.text)))];
  const statementsOf = runs.map((r) => r.statements.length);
  console.log(
    `page ${n}: ${median(statementsOf)} statements, request ${round(median(runs.map((r) => r.wall)))} ms (median of ${ROUNDS})`,
  );
  for (const key of keys) {
    const seen = runs.map((r) => r.statements.find((st) => st.text === key)).filter((st) => st !== undefined);
    const ms = round(median(seen.map((st) => st.ms)));
    const rows = String(seen[0].rows).padStart(4);
    const share = seen.length === ROUNDS ? "" : ` (in ${seen.length} of ${ROUNDS} requests)`;
    console.log(`  ${ms.toString().padStart(6)} ms  ${rows} rows  ${key.slice(0, 100)}${share}`);
  }
  const sum = median(runs.map((r) => r.statements.reduce((t, st) => t + st.ms, 0)));
  console.log(`  ${round(sum).toString().padStart(6)} ms  Σ statements (median of sums)`);
}
await app.close();
await database.close();
console.log(`load average ${[load0, ...loadavg()].map((l) => round(l, 1)).join(" → ")}`);
