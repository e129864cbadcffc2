// Per-request cost of the whole pipeline, against the built code (run `npm run build` first):
//   node bench/auth-overhead.mjs                                    embedded database in a temp dir
//   BENCH_DATABASE_URL=postgres://… node bench/auth-overhead.mjs    PostgreSQL (a schema of its own, dropped after)
// Measured: GET /api/v1/bench/ping, a trivial handler behind everything a request goes through (request
// id, bearer key → actor, per-key rate limit (raised), scope, zod response serializer, ETag, JSON request
// log line on stdout, request-log row, metrics). Baseline: a bare Fastify route answering the same body
// in the same server process. Server and autocannon run in separate processes on separate cores.
// Target (issue #35): measured req/s ≥ 0.55 × baseline. Then the contract's floor against the same
// baseline: the bare route plus only the JSON log line and the key's SHA-256 that every request must cost,
// whatever the implementation. Beside throughput, the CPU each request cost (server process and its
// PostgreSQL backends, from /proc): on a shared machine it moves less than req/s does.
// BENCH_CPU_PROF=<dir> profiles the server.
import { compare, loadAverage, pinning, startServer } from "./lib/http.mjs";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TARGET = 0.55;

const server = await startServer("auth");
const base = "http://127.0.0.1";
let result;
let floor;
try {
  result = await compare({
    server,
    measured: { url: `${base}:${server.stack}/api/v1/bench/ping`, headers: { authorization: `Bearer ${server.key}` } },
    baseline: { url: `${base}:${server.bare}/ping` },
    connections: CONNECTIONS,
    duration: DURATION,
    warmup: 3,
    rounds: ROUNDS,
  });
  // What the contract alone costs per request (a log line, the key's hash), against the same bare route.
  if (!process.env.BENCH_CPU_PROF) {
    floor = await compare({
      server,
      measured: { url: `${base}:${server.bare}/ping-floor`, headers: { authorization: `Bearer ${server.key}` } },
      baseline: { url: `${base}:${server.bare}/ping` },
      connections: CONNECTIONS,
      duration: DURATION,
      warmup: 3,
      rounds: ROUNDS,
    });
  }
} finally {
  await server.stop();
}

const ratio = result.measured.rps / result.baseline.rps;
const cpu = (side) => ({ server: Math.round(side.server_us), database: Math.round(side.database_us) });
const total = (c) => c.server + c.database;
const figures = {
  database: server.kind,
  connections: CONNECTIONS,
  pinning,
  load_average: loadAverage(),
  stack_rps: Math.round(result.measured.rps),
  stack_rounds: result.measured.rounds,
  stack_p50_ms: result.measured.p50_ms,
  bare_rps: Math.round(result.baseline.rps),
  bare_rounds: result.baseline.rounds,
  bare_p50_ms: result.baseline.p50_ms,
  ratio: Number(ratio.toFixed(3)),
  floor_rps: floor && Math.round(floor.measured.rps),
  floor_bare_rps: floor && Math.round(floor.baseline.rps),
  floor_ratio: floor && Number((floor.measured.rps / floor.baseline.rps).toFixed(3)),
  // CPU per request, µs: server process (all threads) + its PostgreSQL backends.
  stack_cpu_us: cpu(result.measured),
  bare_cpu_us: cpu(result.baseline),
  floor_cpu_us: floor && cpu(floor.measured),
  floor_bare_cpu_us: floor && cpu(floor.baseline),
};
console.log(JSON.stringify(figures));
console.log(
  `\n| date | node | database | connections | stack req/s | bare Fastify req/s | ratio (≥ ${TARGET}) | CPU µs/request stack / bare | load avg |`,
);
console.log("|---|---|---|---|---|---|---|---|---|");
console.log(
  `| ${new Date().toISOString().slice(0, 10)} | ${process.version} | ${server.kind} | ${CONNECTIONS} | ${figures.stack_rps} | ${figures.bare_rps} | ${figures.ratio} | ${total(figures.stack_cpu_us)} / ${total(figures.bare_cpu_us)} | ${figures.load_average} |`,
);
if (floor) {
  console.log(
    `\ncontract floor (bare Fastify + the JSON log line + the key's SHA-256 only): ${figures.floor_rps} req/s vs bare ${figures.floor_bare_rps}: ${figures.floor_ratio}×; CPU ${total(figures.floor_cpu_us)} vs ${total(figures.floor_bare_cpu_us)} µs/request`,
  );
  const cpuRatio = total(figures.bare_cpu_us) / total(figures.stack_cpu_us);
  const floorCpuRatio = total(figures.floor_bare_cpu_us) / total(figures.floor_cpu_us);
  console.log(
    `by CPU per request (bare ÷ measured): stack ${cpuRatio.toFixed(3)}×, floor ${floorCpuRatio.toFixed(3)}×; stack within ${(floorCpuRatio / cpuRatio).toFixed(2)}× of the floor`,
  );
}
console.log(
  `\ntarget: auth-overhead ratio ≥ ${TARGET}× bare Fastify (same run: ${figures.stack_rps} vs ${figures.bare_rps} req/s, ${figures.ratio}×) ${ratio >= TARGET ? "met" : "MISSED"}`,
);
