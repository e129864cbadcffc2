// One page of a large deal list through the whole stack, against the built code (`npm run build` first):
//   node bench/list-deals.mjs                                    embedded database in a temp dir
//   BENCH_DATABASE_URL=postgres://… node bench/list-deals.mjs    PostgreSQL (a schema of its own, dropped after)
// BENCH_DEALS deals (default 100,000; 3 in 10 approved) written with plain SQL, then
// GET /api/v1/deals?status=approved&per_page=100&page=10 through everything a request goes through
// (bearer key → actor, rate limiter with a raised limit, scope, query validation, the page query, the
// splits of its deals, the exact total, the page sent as the JSON text PostgreSQL renders, ETag, request
// log). Baseline: a bare Fastify route running the same page query and a count(*) through the same
// Kysely, driver and database, in the same server process. Server and autocannon run in separate processes on separate cores.
// Target: ratio ≥ 1.0 (then aim for ≥ 2). BENCH_CPU_PROF=<dir> profiles the server.
import { compare, loadAverage, pinning, startServer } from "./lib/http.mjs";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const QUERY = "status=approved&per_page=100&page=10";

const server = await startServer("deals");
const base = "http://127.0.0.1";
let result;
try {
  result = await compare({
    server,
    measured: {
      url: `${base}:${server.stack}/api/v1/deals?${QUERY}`,
      headers: { authorization: `Bearer ${server.key}` },
    },
    baseline: { url: `${base}:${server.bare}/deals?${QUERY}` },
    connections: CONNECTIONS,
    duration: DURATION,
    warmup: 3,
    rounds: ROUNDS,
  });
} finally {
  await server.stop();
}

const ratio = result.measured.rps / result.baseline.rps;
const figures = {
  database: server.kind,
  deals: server.deals,
  approved: server.approved,
  seed_s: Number(server.seed_s.toFixed(1)),
  connections: CONNECTIONS,
  pinning,
  load_average: loadAverage(),
  stack_rps: Math.round(result.measured.rps),
  stack_rounds: result.measured.rounds,
  stack_p50_ms: result.measured.p50_ms,
  bare_rps: Math.round(result.baseline.rps),
  bare_rounds: result.baseline.rounds,
  bare_p50_ms: result.baseline.p50_ms,
  ratio: Number(ratio.toFixed(2)),
};
console.log(JSON.stringify(figures));
console.log(
  "\n| date | node | database | deals | connections | stack req/s | bare page + count(*) req/s | ratio (≥ 1, aim 2) | load avg |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
console.log(
  `| ${new Date().toISOString().slice(0, 10)} | ${process.version} | ${server.kind} | ${server.deals} | ${CONNECTIONS} | ${figures.stack_rps} | ${figures.bare_rps} | ${figures.ratio} | ${figures.load_average} |`,
);
console.log(`\ntargets: ratio ≥ 1.0 ${ratio >= 1 ? "met" : "MISSED"}; aim ≥ 2.0 ${ratio >= 2 ? "met" : "not reached"}`);
