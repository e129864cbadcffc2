// A hot bucket (issue #35), against the built code (`npm run build` first):
//   BENCH_DATABASE_URL=postgres://… node bench/hot-bucket.mjs    PostgreSQL (a schema of its own, dropped after): the target's
//   node bench/hot-bucket.mjs                                    embedded database in a temp dir
// One rep on a quarterly 3-band plan; BENCH_HOT_DEALS deals (default 1,500) closing on random days of
// 2026-Q3 (a fixed pseudo-random sequence), created through the whole app (`inject`: a write key, rate
// limit, validation, the engine, the request log) by BENCH_HOT_CLIENTS concurrent clients (default 40).
// Figure: creates per second over the whole run (and the p50/p90 of one create). Same-run baseline: the
// same deals created one at a time, in the order the concurrent run gave them (its created_at), for a
// second rep on the same plan. Exact: once both have settled (their recalculation jobs run), every line
// of the first rep equals the second rep's line of the same deal (amount and explanation, ids aside).
// Target: ≥ 50 creates/s on PostgreSQL.
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { benchApp, drainRecalcJobs, openBenchDatabase, round, seconds, seedRepsAndPlans } from "./lib/setup.mjs";

const DEALS = Number(process.env.BENCH_HOT_DEALS ?? 1500);
const CLIENTS = Number(process.env.BENCH_HOT_CLIENTS ?? 40);
const TARGET = 50;

const { database, kind, cleanup } = await openBenchDatabase();
const db = database.db;
const t0 = performance.now();
const { userIds } = await seedRepsAndPlans(db, { reps: 2, plans: 1 });
const [hot, replay] = userIds;
const { app, key } = await benchApp(database, {
  scope: "write",
  name: "hot",
  perKeyLimit: { limit: 1e9, windowMs: 1000 },
});
console.error(`seeded 2 reps and their plan in ${seconds(t0).toFixed(1)} s`);

// A fixed pseudo-random sequence (mulberry32): the same deals every run.
let seed = 35;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
};
const Q3 = Date.parse("2026-07-01T00:00:00Z");
const DAYS = 92;
const deals = Array.from({ length: DEALS }, (_, i) => ({
  opportunity_name: `Hot ${i}`,
  arr_amount: (100000 + Math.floor(random() * 3900000)) / 100,
  close_date: new Date(Q3 + Math.floor(random() * DAYS) * 86_400_000).toISOString().slice(0, 10),
}));

async function create(owner, body) {
  const started = performance.now();
  const res = await app.inject({
    method: "POST",
    url: "/api/v1/deals",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    payload: JSON.stringify({ ...body, owner_id: owner }),
  });
  const ms = performance.now() - started;
  if (res.statusCode !== 201) throw new Error(`POST /deals: ${res.statusCode} ${res.body}`);
  const deal = res.json();
  return { ms, id: deal.id, created_at: deal.created_at };
}

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

// The hot bucket: CLIENTS clients, each taking the next deal until none is left.
const made = new Array(DEALS);
let next = 0;
const startedHot = performance.now();
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (next < DEALS) {
      const i = next++;
      made[i] = await create(hot, deals[i]);
    }
  }),
);
const hotSeconds = seconds(startedHot);
const hotMs = made.map((m) => m.ms);

// The same deals one at a time, in the order the concurrent run created them.
const order = made
  .map((m, i) => ({ i, created_at: m.created_at, id: m.id }))
  .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
const replayed = new Array(DEALS);
const startedOne = performance.now();
for (const { i } of order) replayed[i] = await create(replay, deals[i]);
const oneSeconds = seconds(startedOne);
const oneMs = replayed.map((m) => m.ms);
const jobs = await drainRecalcJobs(db);

// Exact: each deal's line for the hot rep equals the replayed deal's line.
const linesOf = async (user) =>
  new Map(
    (
      await db
        .selectFrom("commission_lines")
        .select(["deal_id", "amount", "explanation"])
        .where("user_id", "=", user)
        .where("status", "<>", "void")
        .where("kind", "=", "plan")
        .execute()
    ).map((l) => [l.deal_id, l]),
  );
const [hotLines, replayLines] = [await linesOf(hot), await linesOf(replay)];
const comparable = (l) =>
  l &&
  JSON.stringify({ amount: String(Number(l.amount)), explanation: l.explanation }).replace(/deal_[0-9A-Z]+/g, "deal");
let differing = 0;
for (let i = 0; i < DEALS; i++) {
  if (comparable(hotLines.get(made[i].id)) !== comparable(replayLines.get(replayed[i].id))) differing++;
}

await app.close();
await database.close();
await cleanup();

const figures = {
  database: kind,
  deals: DEALS,
  clients: CLIENTS,
  creates_per_s: round(DEALS / hotSeconds, 1),
  create_p50_ms: round(quantile(hotMs, 0.5), 1),
  create_p90_ms: round(quantile(hotMs, 0.9), 1),
  one_at_a_time_per_s: round(DEALS / oneSeconds, 1),
  one_at_a_time_p50_ms: round(quantile(oneMs, 0.5), 1),
  ratio: round(hotSeconds > 0 ? oneSeconds / hotSeconds : 0, 2),
  recalculation_jobs_after: jobs,
  lines_compared: DEALS,
  lines_differing: differing,
  load_average: loadavg().map((l) => round(l, 1)),
};
console.log(JSON.stringify(figures));
console.log(
  "\n| date | database | load | deals | clients | creates/s (p50, p90 of one) | same-run baseline: one at a time, creates/s (p50) | ratio | lines differing |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
console.log(
  `| ${new Date().toISOString().slice(0, 10)} | ${kind} | ${figures.load_average[0]} | ${DEALS} | ${CLIENTS} | ${figures.creates_per_s} (${figures.create_p50_ms} ms, ${figures.create_p90_ms} ms) | ${figures.one_at_a_time_per_s} (${figures.one_at_a_time_p50_ms} ms) | ${figures.ratio} | ${differing} of ${DEALS} |`,
);
console.log(
  `\ntarget: hot bucket ≥ ${TARGET} creates/s (${kind}) ${figures.creates_per_s >= TARGET ? "met" : "MISSED"}`,
);
console.log(`target: every line equal to the same deals created one at a time ${differing === 0 ? "met" : "MISSED"}`);
