// stall: does one heavy request keep the server from answering others? (issue #19, "no stall")
//
// Seeds a database (reps, plans, BENCH_DEALS pending deals and their lines), starts the real `cts serve`
// on it (pinned to core 0; this process, the client, on core 1), and probes it with two sequential
// loops, one request every BENCH_PROBE_MS each: `GET /healthz` and a small authenticated GET
// (`GET /api/v1/deals/{id}` with a read key). First idle, then beside each heavy request in turn: a
// bulk create of 1,000 deals, a bulk update of the same 1,000, the CSV export of every line, a plan
// change's impact preview, and a wide recalculation (a plan's rates edited; the worker's job, probed
// until it has finished). Prints each probe's p50 / p99 / max during each, beside the idle figures.
// Target: p99 ≤ 50 ms for both probes beside every heavy request, on either database.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { Agent, request } from "node:http";
import { cpus } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { benchDeployment, freePort } from "./lib/deployment.mjs";
import { loadAverage } from "./lib/http.mjs";
import {
  dealBody,
  drainRecalcJobs,
  insertPendingDeals,
  load,
  ownerCtx,
  seedRepsAndPlans,
  tiers,
} from "./lib/setup.mjs";

const DEALS = Number(process.env.BENCH_DEALS ?? 100_000);
const PROBE_MS = Number(process.env.BENCH_PROBE_MS ?? 10);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 3000);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const REPS = 200;
const PLANS = 4;
// The real per-key limit (100 a minute) holds: the read probe turns over this many keys.
const READ_KEYS = 120;

const root = fileURLToPath(new URL("..", import.meta.url));
const round = (n, digits = 1) => Number(n.toFixed(digits));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const { openDatabase } = await load("db/connect.js");
const { migrate } = await load("db/migrate.js");
const { createKey } = await load("api-keys/create.js");
const { updatePlan } = await load("comp-plans/update.js");
const { UpdatePlanBody } = await load("comp-plans/schema.js");
const { setInlineLimit } = await load("commissions/recalc/recalculate.js");
const { makeCtx, OWNER } = await load("context.js");

// ---- the database: seeded here, then served by `cts serve` ----
const { env, kind, cleanup } = await benchDeployment("cts-bench-stall-", "info");

async function seed() {
  if (!DATABASE_URL) mkdirSync(env.CTS_DATA_DIR, { recursive: true, mode: 0o700 });
  const t0 = performance.now();
  const database = await openDatabase(
    DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: join(env.CTS_DATA_DIR, "pgdata") },
  );
  const db = database.db;
  await migrate(db);
  const { planIds } = await seedRepsAndPlans(db, { reps: REPS, plans: PLANS });
  await insertPendingDeals(db, DEALS, REPS);
  setInlineLimit(Number.MAX_SAFE_INTEGER);
  for (const id of planIds) await updatePlan(ownerCtx(db), id, UpdatePlanBody.parse({ tiers: tiers(0.001) }));
  await drainRecalcJobs(db);
  // Keys belong to an environment: these to the one `cts serve` runs as.
  const ctx = makeCtx(db, env.CTS_ENV, OWNER);
  const keyOf = async (scope, i = 0) => (await createKey(ctx, { name: `stall ${scope} ${i}`, scope })).key;
  const keys = { admin: await keyOf("admin"), write: await keyOf("write"), read: [] };
  for (let i = 0; i < READ_KEYS; i++) keys.read.push(await keyOf("read", i));
  const { n } = await db
    .selectFrom("commission_lines")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  const probeDeal = await db.selectFrom("deals").select("id").orderBy("id").limit(1).executeTakeFirstOrThrow();
  await database.close();
  console.error(
    `${kind}: seeded ${DEALS} deals and ${n} lines over ${REPS} reps in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  return { keys, planId: planIds[0], lines: Number(n), probeDealId: probeDeal.id };
}

// ---- HTTP ----
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
let port = 0;

/** One request; resolves with its status, body text and milliseconds. */
function call(method, path, { key, body, accept } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(payload ? { "content-type": "application/json", "idempotency-key": randomBytes(8).toString("hex") } : {}),
      ...(accept ? { accept } : {}),
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

async function ok(method, path, options, expected = [200]) {
  const r = await call(method, path, options);
  if (!expected.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 300)}`);
  return r;
}

/** Sequential probes (one in flight), one every PROBE_MS, recording [sent-at, ms]. */
function probe(next) {
  const samples = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const at = performance.now();
      const { path, key, ok: expect } = next();
      const r = await call("GET", path, { key });
      if (r.status !== expect) throw new Error(`probe ${path}: ${r.status} ${r.text.slice(0, 200)}`);
      samples.push([at, r.ms]);
      const wait = PROBE_MS - (performance.now() - at);
      if (wait > 0) await sleep(wait);
    }
  })();
  // A failed probe ends the run (in `stop`), after the server has been stopped by `finally`.
  done.catch((err) => {
    running = false;
    console.error(err.message);
  });
  return {
    samples,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
function stats(samples, from, to) {
  const ms = samples
    .filter(([at]) => at >= from && at <= to)
    .map(([, m]) => m)
    .sort((a, b) => a - b);
  if (ms.length === 0) return { n: 0, p50: Number.NaN, p99: Number.NaN, max: Number.NaN };
  return { n: ms.length, p50: round(pct(ms, 50), 1), p99: round(pct(ms, 99), 1), max: round(ms.at(-1), 1) };
}

// ---- run ----
// BENCH_SERVER_LOG=<file>: the server's JSON request log (one line per request, with its duration).
const LOG = process.env.BENCH_SERVER_LOG
  ? (await import("node:fs")).openSync(process.env.BENCH_SERVER_LOG, "w")
  : "ignore";
let server;
try {
  const seeded = await seed();
  port = await freePort();
  const pinned = spawnSync("taskset", ["-c", "0", "true"]).status === 0 && cpus().length >= 2;
  // BENCH_CPU_PROF=<dir>: the server runs under --cpu-prof (written when it stops).
  const prof = process.env.BENCH_CPU_PROF
    ? [
        "--cpu-prof",
        `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`,
        "--cpu-prof-interval",
        process.env.BENCH_CPU_PROF_INTERVAL ?? "1000",
      ]
    : [];
  const serve = [...prof, join(root, "dist/cli/main.js"), "serve"];
  const [cmd, args] = pinned ? ["taskset", ["-c", "0", process.execPath, ...serve]] : [process.execPath, serve];
  if (pinned) spawnSync("taskset", ["-p", "-c", "1", String(process.pid)], { stdio: "ignore" });
  // BENCH_SERVER_NODE_OPTIONS: the server's NODE_OPTIONS (a diagnostic preload, say; bench/README.md).
  // stderr kept for a failure's report only: the first start prints its bootstrap admin key there.
  server = spawn(cmd, args, {
    cwd: root,
    env: {
      ...env,
      CTS_PORT: String(port),
      ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
    },
    stdio: ["ignore", LOG, "pipe"],
  });
  let serverErr = "";
  server.stderr.on("data", (c) => {
    serverErr += c;
  });
  server.on("exit", (code, signal) => {
    if (code && signal !== "SIGTERM") console.error(`cts serve exited with ${code}:\n${serverErr.slice(-2000)}`);
  });
  const exited = new Promise((resolve) => server.on("exit", resolve));
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error(`cts serve exited with ${server.exitCode}`);
    try {
      if ((await call("GET", "/healthz")).status === 200) break;
    } catch {}
    if (i > 600) throw new Error("cts serve did not answer /healthz within 60 s");
    await sleep(100);
  }
  const { keys, planId, probeDealId } = seeded;
  let turn = 0;
  const health = probe(() => ({ path: "/healthz", ok: 200 }));
  const small = probe(() => ({
    path: `/api/v1/deals/${probeDealId}`,
    key: keys.read[turn++ % keys.read.length],
    ok: 200,
  }));

  // Warm-up, not measured: every read key's first use (its lookup), the routes' first calls.
  for (let i = 0; i < READ_KEYS + 30; i++) await sleep(PROBE_MS);
  while (small.samples.length < READ_KEYS + 30) await sleep(50);

  const rows = [];
  const measure = async (name, run) => {
    await sleep(300);
    const from = performance.now();
    const detail = await run();
    const to = performance.now();
    rows.push({
      name,
      ms: to - from,
      detail,
      health: stats(health.samples, from, to),
      small: stats(small.samples, from, to),
    });
  };
  await measure("idle", () => sleep(IDLE_MS));

  // BENCH_ROUNDS=2: the heavy requests again, on a server that has run each once (its code compiled).
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
  for (let round = 0; round < ROUNDS; round++) {
    const again = round === 0 ? "" : ", again";
    const bulk = Array.from({ length: 1000 }, (_, i) => dealBody(DEALS + round * 1000 + i, REPS));
    await measure(`bulk create 1,000${again}`, async () => {
      const r = await ok("POST", "/api/v1/deals/bulk", { key: keys.write, body: { deals: bulk } });
      return JSON.parse(r.text).meta.created;
    });
    const moved = bulk.map((d) => ({ ...d, arr_amount: Number((d.arr_amount + 1).toFixed(2)) }));
    await measure(`bulk update 1,000${again}`, async () => {
      const r = await ok("POST", "/api/v1/deals/bulk", { key: keys.write, body: { deals: moved } });
      return JSON.parse(r.text).meta.updated;
    });
    await measure(`CSV export${again}`, async () => {
      const r = await ok("GET", "/api/v1/commissions", { key: keys.admin, accept: "text/csv" });
      return r.text.split("\r\n").length - 2;
    });
    const edit = { tiers: tiers(0.002 + round * 0.001) };
    await measure(`impact preview${again}`, async () => {
      const r = await ok("POST", `/api/v1/comp-plans/${planId}/impact`, { key: keys.admin, body: edit }, [200, 202]);
      const body = JSON.parse(r.text);
      return body.summary ? body.summary.lines : `job ${body.job_id ?? body.id}`;
    });
    await measure(`wide recalculation (job)${again}`, async () => {
      const current = JSON.parse((await ok("GET", `/api/v1/comp-plans/${planId}`, { key: keys.admin })).text);
      const r = await call("PATCH", `/api/v1/comp-plans/${planId}`, { key: keys.admin, body: edit });
      if (r.status !== 200) throw new Error(`PATCH: ${r.status} ${r.text.slice(0, 300)} (version ${current.version})`);
      const job = JSON.parse(r.text).recalculation_job_id;
      if (!job) return "inline";
      for (;;) {
        const j = JSON.parse((await ok("GET", `/api/v1/jobs/${job}`, { key: keys.admin })).text);
        if (j.status === "succeeded") return `job of ${j.progress?.total ?? "?"}`;
        if (j.status === "failed") throw new Error(`job failed: ${JSON.stringify(j.error ?? j)}`);
        await sleep(100);
      }
    });
  }
  await health.stop();
  await small.stop();
  console.error(`probes: ${health.samples.length} /healthz, ${small.samples.length} small`);

  const idle = rows[0];
  console.log(
    `\nstall (${kind}, ${DEALS} deals, ${seeded.lines} lines; probes every ${PROBE_MS} ms; load ${loadAverage()}; ${pinned ? "server core 0, client core 1" : "not pinned"})`,
  );
  console.log(
    "| beside | took | /healthz p50 / p99 / max (n) | GET /deals/{id} p50 / p99 / max (n) | p99 ÷ idle p99 | ≤ 50 ms? |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) {
    // "—": no probe sent during the heavy request came back before it ended.
    const f = (s) => (s.n === 0 ? "— (0)" : `${s.p50} / ${s.p99} / ${s.max} ms (${s.n})`);
    const ratio = `${round(r.health.p99 / idle.health.p99, 1)}× / ${round(r.small.p99 / idle.small.p99, 1)}×`;
    const met = r.health.p99 <= 50 && r.small.p99 <= 50 ? "yes" : "**no**";
    const what = r.detail === undefined ? r.name : `${r.name} (${r.detail})`;
    console.log(`| ${what} | ${(r.ms / 1000).toFixed(2)} s | ${f(r.health)} | ${f(r.small)} | ${ratio} | ${met} |`);
  }
  server.kill("SIGTERM");
  await exited;
} finally {
  if (server && server.exitCode === null) server.kill("SIGKILL");
  agent.destroy();
  await cleanup();
}
