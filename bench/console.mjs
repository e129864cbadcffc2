// The web console, against the built code (`npm run build` first):  node bench/console.mjs
// 1. Initial JS: the gzip bytes of what dist/web/index.html loads before any lazy page (the entry chunk,
//    its module preloads and their static imports). Budget 250 KB (250 × 1024 bytes).
// 2. Pages in headless Chromium (Debian's /usr/bin/chromium through playwright-core) on the embedded
//    database holding BENCH_DEALS deals (default 100,000, written with plain SQL as list-deals does)
//    plus one rep's quarter-by-quarter history made through the API (so their lines are the engine's):
//    navigation start → the "cts:rendered" mark the page sets once its data is shown
//    (web/src/ui/useRenderedMark.ts), BENCH_RUNS runs each (default 7, after one warm-up), median and p90.
//    Baseline, same run and page: the API calls the page made, fetched from the same browser page at once
//    (Promise.all), so the ratio says what the console adds over its own data.
// Targets: rep home ≤ 1.0 s, deal page ≤ 0.5 s, team page of BENCH_TEAM people (default 300) ≤ 1.0 s (median).
// The team: the measured rep and BENCH_TEAM − 1 of the seeded reps (about 100 deals each) moved under the
// rep's manager and put on the rep's plan through the API, their lines the engine's.
// BENCH_COMPARE=<another checkout, built>: its console is measured in the same run, loads alternating
// with this one's (each server on its own copy of the data), and the ratio of the medians printed.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { loadAverage } from "./lib/http.mjs";
import { initialJs } from "./lib/initial-js.mjs";
import { seedDeals } from "./lib/seed-deals.mjs";
import { load } from "./lib/setup.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DEALS = Number(process.env.BENCH_DEALS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TEAM = Number(process.env.BENCH_TEAM ?? 300);
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE;
const BUDGET = 250 * 1024;
const MARK = "cts:rendered";
const PASSWORD = "bench sunflower ledger 2026";
const COMPARE = process.env.BENCH_COMPARE;

// 1. Initial JS.
const js = initialJs(join(ROOT, "dist/web"));
console.log("initial JS (gzip):");
for (const f of js.files) console.log(`  ${f.file}  ${f.gzip} B`);
console.log(
  `  total ${js.js_gzip} B = ${(js.js_gzip / 1024).toFixed(1)} KB of ${BUDGET / 1024} KB budget (${js.js_gzip <= BUDGET ? "met" : "MISSED"}); CSS ${(js.css_gzip / 1024).toFixed(1)} KB`,
);

// 2. A database with the deals, then a real `cts serve` on it.
const dir = mkdtempSync(join(tmpdir(), "cts-bench-console-"));
const dataDir = join(dir, "data");
mkdirSync(dataDir);
{
  const { openDatabase } = await load("db/connect.js");
  const { migrate } = await load("db/migrate.js");
  const database = await openDatabase({ dataDir: join(dataDir, "pgdata") });
  await migrate(database.db);
  await seedDeals(database.db, DEALS);
  await database.close();
}
// With BENCH_COMPARE, a second server runs another build (a checkout built with `npm run build`) on a
// copy of the same data; every page load alternates between the two, so load on a shared machine hits
// both alike and the ratio between them is the change's own.
const builds = [{ name: "this build", root: ROOT, dataDir }];
if (COMPARE) {
  const copy = join(dir, "data-compare");
  cpSync(dataDir, copy, { recursive: true });
  builds.push({ name: `compare (${COMPARE})`, root: resolve(COMPARE), dataDir: copy });
}
let browser;
try {
  for (const build of builds) {
    Object.assign(build, await serve(build.root, build.dataDir));
    // A key allows 100 requests a minute: the team's set-up takes a new one every 90.
    const newKey = () => {
      const created = execFileSync(
        process.execPath,
        ["dist/cli/main.js", "keys", "create", "--scope", "admin", "--name", "bench", "--json"],
        { cwd: build.root, env: build.env, encoding: "utf8" },
      );
      return JSON.parse(created.trim().split("\n").at(-1)).key;
    };
    build.rep = await seedRep(build.url, newKey);
  }

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    // As e2e/playwright.config.ts: without these Chromium reaches for Google's hosts at start.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const results = [];
  for (const target of [
    { name: "rep home", as: (rep) => rep.email, path: () => "/", limit_s: 1.0 },
    { name: "deal page", as: (rep) => rep.email, path: (rep) => `/deals/${rep.dealId}`, limit_s: 0.5 },
    { name: `team page (a manager of ${TEAM})`, as: (rep) => rep.managerEmail, path: () => "/team", limit_s: 1.0 },
  ]) {
    const loads = [];
    for (const build of builds) {
      const context = await signedIn(browser, build.url, target.as(build.rep));
      loads.push({ context, path: target.path(build.rep) });
    }
    if (PROFILE_DIR) await profileLoad(loads[0], target.name);
    const measured = await measure(loads);
    builds.forEach((build, i) => {
      results.push({ ...target, as: target.as(build.rep), path: loads[i].path, build: build.name, ...measured[i] });
    });
    for (const load of loads) await load.context.close();
  }

  const loadAvg = loadAverage();
  const date = new Date().toISOString().slice(0, 10);
  const seed_s = builds[0].rep.seed_s;
  console.log(
    JSON.stringify({ deals: DEALS, seed_s, runs: RUNS, load_average: loadAvg, initial_js_gzip: js.js_gzip, results }),
  );
  console.log(
    "\n| date | node | database | deals | page | runs | median | p90 | API baseline median | ratio | target | met? | load avg |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    const name = COMPARE ? `${r.name}, ${r.build}` : r.name;
    if (r.missing) {
      console.log(
        `| ${date} | ${process.version} | embedded | ${DEALS} | ${name} | — | no "${MARK}" mark within 20 s: the page does not call useRenderedMark yet | — | — | — | ${target(r)} | not measured | ${loadAvg} |`,
      );
      continue;
    }
    const ratio = r.median_ms / r.baseline_median_ms;
    console.log(
      `| ${date} | ${process.version} | embedded | ${DEALS} | ${name} | ${RUNS} | ${r.median_ms} ms | ${r.p90_ms} ms | ${r.baseline_median_ms} ms (${r.api_calls} calls; first call at ${r.first_api_call_median_ms} ms) | ${ratio.toFixed(1)} | ${target(r)} | ${r.limit_s === null ? "—" : r.median_ms <= r.limit_s * 1000 ? "yes" : "**no**"} | ${loadAvg} |`,
    );
  }
  console.log(
    `| ${date} | — | — | — | initial JS | — | ${(js.js_gzip / 1024).toFixed(1)} KB gzip | — | — | — | ≤ 250 KB | ${js.js_gzip <= BUDGET ? "yes" : "**no**"} | — |`,
  );
  if (COMPARE) {
    console.log("\nThis build's median over the compare build's, same run, loads alternating:");
    for (let i = 0; i < results.length; i += 2) {
      const [mine, theirs] = [results[i], results[i + 1]];
      if (mine.missing || theirs.missing) continue;
      console.log(
        `  ${mine.name}: ${mine.median_ms} / ${theirs.median_ms} ms = ${(mine.median_ms / theirs.median_ms).toFixed(2)} (p90 ${mine.p90_ms} / ${theirs.p90_ms})`,
      );
    }
  }
} finally {
  await browser?.close();
  for (const build of builds) await build.stop?.();
  rmSync(dir, { recursive: true, force: true });
}

/** A browser context with this person's session cookie (signed in through the API). */
async function signedIn(browser, url, email) {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } });
  const login = await context.request.post("/api/v1/auth/login", {
    headers: { Origin: url },
    data: { email, password: PASSWORD },
  });
  if (!login.ok()) throw new Error(`login ${email} → ${login.status()}`);
  return context;
}

/**
 * One warm-up load, then RUNS loads (a new tab each, the same browser cache), each to the page's mark;
 * with more than one build, run by run in turn. Then each page's API baseline.
 */
async function measure(loads) {
  const state = loads.map(() => ({ times: [], firstApi: [], calls: [], page: undefined, missing: false }));
  for (let run = 0; run <= RUNS; run++) {
    for (const [i, load] of loads.entries()) {
      const s = state[i];
      if (s.missing) continue;
      await s.page?.close();
      s.page = await load.context.newPage();
      const requested = [];
      s.page.on("request", (request) => {
        const u = new URL(request.url());
        if (request.method() === "GET" && u.pathname.startsWith("/api/v1/")) requested.push(u.pathname + u.search);
      });
      await s.page.goto(load.path);
      const at = await s.page
        .waitForFunction((mark) => performance.getEntriesByName(mark)[0]?.startTime, MARK, { timeout: 20_000 })
        .then((handle) => handle.jsonValue())
        .catch(() => undefined);
      if (at === undefined) {
        s.missing = true;
        continue;
      }
      // Where the time went: when the first API call started.
      const apiStart = await s.page.evaluate(() =>
        Math.min(
          ...performance
            .getEntriesByType("resource")
            .filter((e) => e.name.includes("/api/v1/"))
            .map((e) => e.startTime),
        ),
      );
      if (run > 0) {
        s.times.push(at);
        s.firstApi.push(apiStart);
      }
      s.calls = [...requested];
    }
  }
  return Promise.all(state.map((s) => (s.missing ? { missing: true } : baselineOf(s))));
}

/**
 * BENCH_CPU_PROFILE=<dir>: one load of the page under Chromium's profiler (after a warm-up load), written
 * as <dir>/<page>.cpuprofile, with the functions that took the most time (self) printed.
 */
async function profileLoad(load, name) {
  mkdirSync(PROFILE_DIR, { recursive: true });
  for (const profiled of [false, true]) {
    const page = await load.context.newPage();
    const cdp = await page.context().newCDPSession(page);
    if (profiled) {
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
    }
    await page.goto(load.path);
    await page.waitForFunction((mark) => performance.getEntriesByName(mark)[0]?.startTime, MARK, { timeout: 20_000 });
    if (profiled) {
      const { profile } = await cdp.send("Profiler.stop");
      const file = join(PROFILE_DIR, `${name.replace(/[^a-z0-9]+/gi, "-")}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      const self = new Map();
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const dt = profile.timeDeltas;
      profile.samples.forEach((id, i) => {
        const n = byId.get(id);
        const key = `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`;
        self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
      });
      const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 15);
      console.error(`\n${name}: ${file}; self time, top 15 (ms):`);
      for (const [fn, ms] of top) console.error(`  ${ms.toFixed(1).padStart(8)}  ${fn}`);
    }
    await page.close();
  }
}

/**
 * The baseline: the same calls from the last run's page (its origin, its cookie, the console's CSP
 * allowing it), all at once, after the page has shown its data and gone quiet.
 */
async function baselineOf({ page, times, firstApi, calls }) {
  await page.waitForLoadState("networkidle");
  const baseline = [];
  for (let run = 0; run <= RUNS; run++) {
    const ms = await page.evaluate(async (paths) => {
      const t0 = performance.now();
      await Promise.all(
        paths.map((p) =>
          fetch(p, { credentials: "same-origin", headers: { Accept: "application/json" } }).then((r) =>
            r.arrayBuffer(),
          ),
        ),
      );
      return performance.now() - t0;
    }, calls);
    if (run > 0) baseline.push(ms);
  }
  await page.close();
  return {
    median_ms: Math.round(quantile(times, 0.5)),
    p90_ms: Math.round(quantile(times, 0.9)),
    first_api_call_median_ms: Math.round(quantile(firstApi, 0.5)),
    baseline_median_ms: Math.round(quantile(baseline, 0.5)),
    baseline_p90_ms: Math.round(quantile(baseline, 0.9)),
    api_calls: calls.length,
    calls,
  };
}

function target(r) {
  return r.limit_s === null ? "—" : `≤ ${r.limit_s} s`;
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  return sorted[lo] + (sorted[Math.ceil(i)] - sorted[lo]) * (i - lo);
}

/**
 * The measured rep, through the API as any client would: a tiered quarterly plan, a password (by
 * accepting an invitation), ten deals in each of this quarter and the three before, in every status.
 */
async function seedRep(url, newKey) {
  const t0 = performance.now();
  let adminKey;
  let used = 0;
  const admin = async (method, path, body) => {
    if (used++ % 90 === 0) adminKey = newKey();
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${adminKey}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  const now = new Date();
  const quarterStart = (back) => {
    const index = now.getUTCFullYear() * 4 + Math.floor(now.getUTCMonth() / 3) - back;
    return (day) => new Date(Date.UTC(Math.floor(index / 4), (index % 4) * 3, 1 + day)).toISOString().slice(0, 10);
  };
  const person = async (name, role, managerId) => {
    const email = `${name.toLowerCase().replace(" ", ".")}@bench.example`;
    const created = await admin("POST", "/users", { name, email, role, manager_id: managerId });
    const invitation = await admin("POST", `/users/${created.id}/invitations`);
    const token = new URL(invitation.url).hash.slice(1);
    const accept = await fetch(`${url}/api/v1/auth/invitations/accept`, {
      method: "POST",
      headers: { Origin: url, "Content-Type": "application/json" },
      body: JSON.stringify({ token, password: PASSWORD }),
    });
    if (!accept.ok) throw new Error(`accept → ${accept.status}`);
    return created;
  };
  const manager = await person("Bench Manager", "manager", null);
  const user = await person("Bench Rep", "rep", manager.id);
  const plan = await admin("POST", "/comp-plans", {
    name: "Bench quarterly",
    period: "quarter",
    currency: "USD",
    quota: 100000,
    tiers: [
      { from_attainment: 0, rate: 0.08 },
      { from_attainment: 1, rate: 0.12 },
      { from_attainment: 1.5, rate: 0.15 },
    ],
    effective_from: quarterStart(4)(0),
  });
  await admin("POST", `/comp-plans/${plan.id}/assignments`, { user_id: user.id, effective_from: quarterStart(4)(0) });
  // The rest of the manager's team: seeded reps (bench/lib/seed-deals.mjs ids), on the same plan.
  for (let i = 0; i < TEAM - 1; i++) {
    const id = `usr_bench${String(i).padStart(5, "0")}`;
    await admin("PATCH", `/users/${id}`, { manager_id: manager.id });
    const assigned = await admin("POST", `/comp-plans/${plan.id}/assignments`, {
      user_id: id,
      effective_from: quarterStart(4)(0),
    });
    if (assigned.recalculation_job_id) await jobDone(admin, assigned.recalculation_job_id);
  }
  let dealId;
  for (const back of [3, 2, 1, 0]) {
    for (let i = 0; i < 10; i++) {
      const deal = await admin("POST", "/deals", {
        opportunity_name: `Bench ${back}-${i}`,
        arr_amount: 8000 + i * 1750.25,
        close_date: quarterStart(back)(i * 3),
        owner_id: user.id,
      });
      if (i % 3 !== 2) await admin("POST", `/deals/${deal.id}/approve`);
      if (i % 3 === 0) await admin("POST", `/deals/${deal.id}/mark-paid`);
      if (back === 0 && i === 4) dealId = deal.id;
    }
  }
  return {
    email: user.email,
    managerEmail: manager.email,
    dealId,
    seed_s: Number(((performance.now() - t0) / 1000).toFixed(1)),
  };
}

/** Waits for a recalculation job to finish (the team's lines written before anything is measured). */
async function jobDone(admin, id) {
  for (;;) {
    const job = await admin("GET", `/jobs/${id}`);
    if (job.status === "succeeded") return;
    if (job.status === "failed") throw new Error(`job ${id} failed: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** `cts serve` of the build in `root` on `dataDir`, once it answers /healthz; `stop()` ends it. */
async function serve(root, dataDir) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    CTS_DATA_DIR: dataDir,
    CTS_PORT: String(port),
    CTS_HOST: "127.0.0.1",
    CTS_LOG_LEVEL: "warn",
  };
  let output = "";
  const server = spawn(process.execPath, ["dist/cli/main.js", "serve"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout.on("data", (d) => (output += d));
  server.stderr.on("data", (d) => (output += d));
  const stop = async () => {
    server.kill("SIGTERM");
    await new Promise((r) => (server.exitCode !== null ? r() : server.once("exit", r)));
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`cts serve (${root}) exited (${server.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, env, stop };
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`cts serve (${root}) did not answer /healthz within 120 s:\n${output}`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
