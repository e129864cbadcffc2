// Cost of one create against the size of its bucket (issue #19), against the built code (`npm run build`):
//   node bench/bucket-writes.mjs                                    embedded database in a temp dir
//   BENCH_DATABASE_URL=postgres://… node bench/bucket-writes.mjs    PostgreSQL (a schema of its own, dropped after)
// One quarterly 3-band plan; rep 0 has BENCH_BUCKET pending deals (default 5,000) in 2026-Q3 with their lines
// (plain SQL, then one inline calculation); reps 1… have none. Measured through the whole app (`inject`, a
// write key): `POST /deals` of a deal closing on the quarter's last day — after every deal of its bucket —
// alternately into the full bucket and into an empty one (a new rep each time), BENCH_SAMPLES each
// (default 60) after 5 warm-ups each. Figure: p50 full / p50 empty (target ≤ 2×). Printed beside it, the
// same full bucket through the whole-bucket recalculation every create took before (forced by a queued
// recalculation job, which makes stored lines untrustworthy: recalc/append.ts), and a deal landing first.
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { benchApp, load, openBenchDatabase, ownerCtx, round, seconds, seedRepsAndPlans, tiers } from "./lib/setup.mjs";

const BUCKET = Number(process.env.BENCH_BUCKET ?? 5000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const WARM = 5;
const FULL_SAMPLES = Math.min(SAMPLES, 15);
const REPS = 1 + WARM + SAMPLES;

const { updatePlan } = await load("comp-plans/update.js");
const { UpdatePlanBody } = await load("comp-plans/schema.js");
const { setInlineLimit } = await load("commissions/recalc/recalculate.js");
const { enqueueJob } = await load("jobs/queue.js");
const { loadavg } = await import("node:os");

const { database, kind, cleanup } = await openBenchDatabase();
const db = database.db;
const t0 = performance.now();
const { userIds, planIds } = await seedRepsAndPlans(db, { reps: REPS, plans: 1 });
const [big, ...empties] = userIds;

// The full bucket: BUCKET pending deals of rep 0 over 2026-07-01 … 2026-09-29, then their lines inline.
const now = new Date();
for (let i = 0; i < BUCKET; i += 1000) {
  const deals = [];
  const splits = [];
  for (let k = i; k < Math.min(BUCKET, i + 1000); k++) {
    const id = `deal_bucket${String(k).padStart(6, "0")}`;
    const day = new Date(Date.UTC(2026, 6, 1) + (k % 91) * 86_400_000).toISOString().slice(0, 10);
    deals.push({
      id,
      external_id: `bucket-${k}`,
      opportunity_name: `Bucket deal ${k}`,
      arr_amount: String(1000 + ((k * 7919) % 39000)),
      currency: "USD",
      deal_type: k % 5 === 0 ? "expansion" : "new_business",
      close_date: day,
      owner_id: big,
      splits_explicit: false,
      status: "pending",
      created_at: now,
      updated_at: now,
    });
    splits.push({ deal_id: id, user_id: big, position: 0, percent: "100", close_date: day });
  }
  await db.transaction().execute(async (tx) => {
    await tx.insertInto("deals").values(deals).execute();
    await tx.insertInto("deal_splits").values(splits).execute();
  });
}
setInlineLimit(Number.MAX_SAFE_INTEGER);
await updatePlan(ownerCtx(db), planIds[0], UpdatePlanBody.parse({ tiers: tiers(0.001) }));
setInlineLimit(1000);
const lines = Number(
  (await sql`SELECT count(*) AS n FROM commission_lines WHERE user_id = ${big} AND kind = 'plan'`.execute(db)).rows[0]
    .n,
);
if (lines !== BUCKET) throw new Error(`expected ${BUCKET} lines in the full bucket, found ${lines}`);
await sql`ANALYZE`.execute(db);
console.error(`seeded ${REPS} reps and a bucket of ${BUCKET} deals with their lines in ${seconds(t0).toFixed(1)} s`);

const { app, key } = await benchApp(database, {
  scope: "write",
  name: "bench",
  perKeyLimit: { limit: 1000, windowMs: 10 },
});

let n = 0;
async function create(ownerId, closeDate) {
  const body = {
    opportunity_name: `Measured ${n++}`,
    arr_amount: 12345.67,
    close_date: closeDate,
    owner_id: ownerId,
  };
  const started = performance.now();
  const res = await app.inject({
    method: "POST",
    url: "/api/v1/deals",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
  const ms = performance.now() - started;
  if (res.statusCode !== 201) throw new Error(`POST /deals: ${res.statusCode} ${res.body}`);
  return { ms, deal: res.json() };
}

const p50 = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];

// Warm-up, then alternate full / empty so load swings hit both alike.
for (let i = 0; i < WARM; i++) {
  await create(big, "2026-09-30");
  await create(empties[i], "2026-09-30");
}
const full = [];
const empty = [];
for (let i = 0; i < SAMPLES; i++) {
  full.push((await create(big, "2026-09-30")).ms);
  const { ms, deal } = await create(empties[WARM + i], "2026-09-30");
  empty.push(ms);
  if (deal.commissions.length !== 1) throw new Error("expected one line");
}

// As before this change: the whole bucket recomputed per create (forced by a queued recalculation job).
const job = await db
  .transaction()
  .execute((tx) => enqueueJob(tx, new Date(), { kind: "recalculate", payload: { targets: [] } }));
const whole = [];
for (let i = 0; i < FULL_SAMPLES; i++) whole.push((await create(big, "2026-09-30")).ms);
// A deal landing first in the bucket: everything after it moves (over 1,000 lines: its own line now, a job).
const first = [];
for (let i = 0; i < 5; i++) first.push((await create(big, "2026-07-01")).ms);
await sql`DELETE FROM jobs WHERE id = ${job.id}`.execute(db);

await app.close();
await database.close();
await cleanup();

const figures = {
  database: kind,
  bucket_deals: BUCKET,
  samples: SAMPLES,
  full_bucket_p50_ms: round(p50(full), 1),
  full_bucket_p90_ms: round(p90(full), 1),
  empty_bucket_p50_ms: round(p50(empty), 1),
  empty_bucket_p90_ms: round(p90(empty), 1),
  ratio: round(p50(full) / p50(empty), 2),
  whole_bucket_recalculation_p50_ms: round(p50(whole), 1),
  landing_first_p50_ms: round(p50(first), 1),
  load_average: loadavg().map((l) => round(l, 1)),
};
console.log(JSON.stringify(figures));
console.log(
  "\n| date | database | load | bucket | POST /deals p50 full bucket (p90) | empty bucket p50 (p90) | ratio | whole-bucket recalculation p50 | landing first p50 |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
console.log(
  `| ${new Date().toISOString().slice(0, 10)} | ${kind} | ${figures.load_average[0]} | ${BUCKET} | ${figures.full_bucket_p50_ms} ms (${figures.full_bucket_p90_ms}) | ${figures.empty_bucket_p50_ms} ms (${figures.empty_bucket_p90_ms}) | ${figures.ratio} | ${figures.whole_bucket_recalculation_p50_ms} ms | ${figures.landing_first_p50_ms} ms |`,
);
console.log(`\ntarget: full-bucket p50 ≤ 2× empty-bucket p50 ${figures.ratio <= 2 ? "met" : "MISSED"}`);
