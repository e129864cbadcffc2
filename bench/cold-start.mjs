// Cold-start benchmark against the built code (run `npm run build` first):
//   node bench/cold-start.mjs                                    embedded: a data dir of its own in a temp dir
//   BENCH_DATABASE_URL=postgres://… node bench/cold-start.mjs    PostgreSQL: a database of its own, dropped after
// The data dir (or database) is created first by one `cts serve` started and stopped (initdb template,
// migrations, bootstrap key). Measured, BENCH_STARTS times (default 5): `node dist/cli/main.js serve` spawned
// → first `GET /healthz` 200 (polled every 10 ms), then, after BENCH_IDLE_MS (default 3,000) of idling, the
// server's RSS (VmRSS; VmHWM is its peak). Baseline, same run: a bare Fastify app with one /healthz route
// started the same way. Targets: start < 2 s; idle RSS < 300 MB embedded, < 150 MB on PostgreSQL.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { benchDeployment, freePort } from "./lib/deployment.mjs";

const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 3000);
const _DATABASE_URL = process.env.BENCH_DATABASE_URL;
const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "dist/cli/main.js");
const round = (n, digits = 1) => Number(n.toFixed(digits));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function healthz(port) {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path: "/healthz", timeout: 1000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", () => resolve(0));
    req.on("timeout", () => req.destroy());
    req.end();
  });
}

/** kB values of /proc/<pid>/status (Linux), and user + system CPU seconds from /proc/<pid>/stat. */
function procStatus(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? Number.NaN);
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024, cpuS: (Number(stat[11]) + Number(stat[12])) / 100 };
}

/** Spawns, polls /healthz until 200, idles, reads memory, stops (SIGTERM) and waits for the exit. */
async function startOnce(args, env, port) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before /healthz:\n${stderr}`);
    if ((await healthz(port)) === 200) break;
    if (performance.now() - started > 60_000) throw new Error(`no /healthz 200 within 60 s:\n${stderr}`);
    await sleep(10);
  }
  const ready = (performance.now() - started) / 1000;
  const atReady = procStatus(child.pid);
  await sleep(IDLE_MS);
  const idle = procStatus(child.pid);
  child.kill("SIGTERM");
  const code = await exited;
  if (code !== 0) throw new Error(`exited with ${code} after SIGTERM:\n${stderr}`);
  return { ready, cpu: atReady.cpuS, rss: idle.rssMb, peak: idle.peakMb };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// ---- the deployment: a data dir, or a database of its own ----
const { env, kind, cleanup } = await benchDeployment("cts-bench-cold-", "warn");

try {
  const port = await freePort();
  const serve = [cli, "serve"];
  const serveEnv = { ...env, CTS_PORT: String(port) };
  const created = await startOnce(serve, serveEnv, port);
  console.error(
    `${kind}: created and closed in ${created.ready.toFixed(1)} s (first start: template, migrations, key)`,
  );

  // Baseline: bare Fastify, one route, the same spawn and polling.
  const bare = [
    "--input-type=module",
    "-e",
    `import Fastify from "fastify";
     const app = Fastify();
     app.get("/healthz", async () => ({ status: "ok" }));
     await app.listen({ host: "127.0.0.1", port: ${port} });
     process.on("SIGTERM", () => app.close().then(() => process.exit(0)));`,
  ];
  const runs = [];
  const bases = [];
  for (let i = 0; i < STARTS; i++) {
    runs.push(await startOnce(serve, serveEnv, port));
    bases.push(await startOnce(bare, env, port));
  }
  const pick = (list, key) => median(list.map((r) => r[key]));
  const figures = {
    database: kind,
    starts: STARTS,
    start_s: round(pick(runs, "ready"), 2),
    start_s_all: runs.map((r) => round(r.ready, 2)),
    start_cpu_s: round(pick(runs, "cpu"), 2),
    idle_rss_mb: round(pick(runs, "rss"), 0),
    peak_rss_mb: round(pick(runs, "peak"), 0),
    bare_fastify_start_s: round(pick(bases, "ready"), 2),
    bare_fastify_rss_mb: round(pick(bases, "rss"), 0),
    ratio: round(pick(runs, "ready") / pick(bases, "ready"), 1),
    load_average: loadavg().map((l) => round(l, 1)),
  };
  const rssTarget = kind === "embedded" ? 300 : 150;
  console.log(JSON.stringify(figures));
  console.log(
    "\n| date | node | load | database | start → /healthz 200 (median) | CPU to ready | idle RSS (peak) | bare Fastify start | bare RSS | ratio |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  console.log(
    `| ${new Date().toISOString().slice(0, 10)} | ${process.version} | ${figures.load_average[0]} | ${kind} | ${figures.start_s} s | ${figures.start_cpu_s} s | ${figures.idle_rss_mb} MB (${figures.peak_rss_mb}) | ${figures.bare_fastify_start_s} s | ${figures.bare_fastify_rss_mb} MB | ${figures.ratio}× |`,
  );
  console.log(`\ntarget: start < 2 s ${figures.start_s < 2 ? "met" : "MISSED"}`);
  console.log(`target: idle RSS < ${rssTarget} MB ${figures.idle_rss_mb < rssTarget ? "met" : "MISSED"}`);
} finally {
  await cleanup();
}
