// Shared by the HTTP benchmarks (auth-overhead, list-deals): a server process (bench/lib/http-server.mjs)
// pinned to one core, autocannon (bench/lib/load.mjs) in another process pinned to the other, and
// alternating rounds of the measured route and its same-run baseline.
import { spawn, spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";

const here = (f) => fileURLToPath(new URL(f, import.meta.url));
const hasTaskset = spawnSync("taskset", ["-c", "0", "true"]).status === 0;
const twoCores = cpus().length >= 2;
export const pinning = hasTaskset && twoCores ? "server on core 0, load on core 1 (taskset)" : "not pinned";

/** argv prefixed with `taskset -c <core>` where that works. */
function pinned(core, argv) {
  return hasTaskset && twoCores ? ["taskset", ["-c", String(core), ...argv]] : [argv[0], argv.slice(1)];
}

/**
 * Starts bench/lib/http-server.mjs in `mode` on core 0 and waits for its ports. BENCH_CPU_PROF=<dir>
 * runs it under `--cpu-prof` (the profile is written when it stops).
 */
export async function startServer(mode) {
  const prof = process.env.BENCH_CPU_PROF;
  const flags = prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : [];
  const [cmd, args] = pinned(0, [process.execPath, ...flags, here("./http-server.mjs"), mode]);
  // The server's stdout (its JSON request log, as `cts serve` writes it) goes to /dev/null.
  // PGAPPNAME names the server's PostgreSQL connections, so their backends' CPU can be found (`cpu`).
  const env = { ...process.env, PGAPPNAME: `cts-bench-${process.pid}` };
  const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "inherit", "ipc"], env });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const ready = await new Promise((resolve, reject) => {
    child.once("message", resolve);
    exited.then((code) => reject(new Error(`bench server exited (${code}) before it was ready`)));
  });
  let asked = 0;
  return {
    ...ready,
    /** CPU seconds so far: the server process (all its threads), and its PostgreSQL backends by pid. */
    cpu: () =>
      new Promise((resolve) => {
        const id = ++asked;
        const on = (m) => {
          if (m?.cpu !== id) return;
          child.off("message", on);
          resolve({ server: m.server, database: m.database });
        };
        child.on("message", on);
        child.send({ cpu: id });
      }),
    /** Stops the server (it drops its database) and resolves when it has exited. */
    stop: async () => {
      child.send("stop");
      await exited;
    },
  };
}

/** One autocannon run in its own process on core 1. */
export function runLoad(url, { connections, duration, headers = {} }) {
  const options = JSON.stringify({ url, connections, duration, headers });
  const [cmd, args] = pinned(1, [process.execPath, here("./load.mjs"), options]);
  const r = spawnSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (r.status !== 0) throw new Error(`autocannon failed (${r.status})`);
  const result = JSON.parse(r.stdout.trim().split("\n").at(-1));
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts (statuses ${JSON.stringify(result.status_codes)})`,
    );
  }
  return result;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** One run of the load with the server's CPU over it: µs per request, server and database. */
async function measuredRun(server, url, options) {
  const before = await server.cpu();
  const r = runLoad(url, options);
  const after = await server.cpu();
  // A backend that started during the run counts from 0; one that ended is not seen after (its share lost).
  const database = Object.entries(after.database).reduce((sum, [pid, s]) => sum + s - (before.database[pid] ?? 0), 0);
  const perRequest = (seconds) => (seconds * 1e6) / r.total;
  return { ...r, server_us: perRequest(after.server - before.server), database_us: perRequest(database) };
}

/**
 * A warm-up of each, then `rounds` alternating runs of the baseline and the measured route (so drift in
 * the machine's load hits both alike). Returns each side's mean req/s, its rounds and latencies, and
 * the CPU each request cost (server process and PostgreSQL backends, µs): on a machine shared with other
 * work, throughput follows the share of the cores the server gets, CPU per request does not.
 */
export async function compare({ server, measured, baseline, connections, duration, warmup, rounds }) {
  if (process.env.BENCH_CPU_PROF) {
    // Profiling: load only the measured route, so the profile shows its cost alone (no ratio).
    const r = runLoad(measured.url, { connections, duration: duration * rounds, headers: measured.headers });
    const side = { rps: r.rps, rounds: [Math.round(r.rps)], p50_ms: r.p50_ms, p99_ms: r.p99_ms };
    return { measured: side, baseline: { ...side, rps: Number.NaN } };
  }
  runLoad(baseline.url, { connections, duration: warmup, headers: baseline.headers });
  runLoad(measured.url, { connections, duration: warmup, headers: measured.headers });
  const runs = { measured: [], baseline: [] };
  for (let i = 0; i < rounds; i++) {
    runs.baseline.push(await measuredRun(server, baseline.url, { connections, duration, headers: baseline.headers }));
    runs.measured.push(await measuredRun(server, measured.url, { connections, duration, headers: measured.headers }));
  }
  const side = (rs) => ({
    rps: mean(rs.map((r) => r.rps)),
    rounds: rs.map((r) => Math.round(r.rps)),
    p50_ms: mean(rs.map((r) => r.p50_ms)),
    p99_ms: mean(rs.map((r) => r.p99_ms)),
    server_us: mean(rs.map((r) => r.server_us)),
    database_us: mean(rs.map((r) => r.database_us)),
  });
  return { measured: side(runs.measured), baseline: side(runs.baseline) };
}

/** `uptime`'s load averages, printed beside the figures: the machine is shared. */
export function loadAverage() {
  const r = spawnSync("uptime", { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim().replace(/^.*load average:\s*/, "") : "unknown";
}
