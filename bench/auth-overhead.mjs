// Per-request cost of the whole pipeline, against the built code (run `npm run build` first):
//   node bench/auth-overhead.mjs                                    embedded database in a temp dir
//   BENCH_DATABASE_URL=postgres://… node bench/auth-overhead.mjs    PostgreSQL (a schema of its own, dropped after)
// Measured: GET /api/v1/bench/ping, a trivial handler behind everything a request goes through (request
// id, bearer key → actor, per-key rate limit (raised), scope, zod response serializer, ETag, JSON request
// log line on stdout, request-log row, metrics). Baseline: a bare Fastify route answering the same body
// in the same server process. Server and autocannon run in separate processes on separate cores.
// Target: measured req/s ≥ 0.85 × baseline. Then the contract's floor against the same baseline: the bare
// route plus only the JSON log line and the key's SHA-256 that every request must cost, whatever the
// implementation. BENCH_CPU_PROF=<dir> profiles the server.
import { compare, loadAverage, pinning, startServer } from "./lib/http.mjs";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const TARGET = 0.85;

const server = await startServer("auth");
const base = "http://127.0.0.1";
let result;
let floor;
try {
  result = compare({
    measured: { url: `${base}:${server.stack}/api/v1/bench/ping`, headers: { authorization: `Bearer ${server.key}` } },
    baseline: { url: `${base}:${server.bare}/ping` },
    connections: CONNECTIONS,
    duration: DURATION,
    warmup: 3,
    rounds: ROUNDS,
  });
  // What the contract alone costs per request (a log line, the key's hash), against the same bare route.
  if (!process.env.BENCH_CPU_PROF) {
    floor = compare({
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
};
console.log(JSON.stringify(figures));
console.log(
  "\n| date | node | database | connections | stack req/s | bare Fastify req/s | ratio (≥ 0.85) | load avg |",
);
console.log("|---|---|---|---|---|---|---|---|");
console.log(
  `| ${new Date().toISOString().slice(0, 10)} | ${process.version} | ${server.kind} | ${CONNECTIONS} | ${figures.stack_rps} | ${figures.bare_rps} | ${figures.ratio} | ${figures.load_average} |`,
);
if (floor) {
  console.log(
    `\ncontract floor (bare Fastify + the JSON log line + the key's SHA-256 only): ${figures.floor_rps} req/s vs bare ${figures.floor_bare_rps}: ${figures.floor_ratio}×`,
  );
}
console.log(`\ntarget: ratio ≥ ${TARGET} ${ratio >= TARGET ? "met" : "MISSED"}`);
