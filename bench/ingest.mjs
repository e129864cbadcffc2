// Bulk-ingest benchmark against the built code (run `npm run build` first):
//   node bench/ingest.mjs                                    embedded database in a temp dir
//   BENCH_DATABASE_URL=postgres://… node bench/ingest.mjs    PostgreSQL (a schema of its own, dropped after)
// 1k reps on 3-band tiered plans, then BENCH_DEALS deals (default 20,000) through the service's bulk
// upsert, 1,000 per call as `POST /deals/bulk` takes them (body parsed by the route's schema, deals and
// splits written, their commission lines calculated, audit and outbox rows). A call whose recalculation exceeds
// the 1,000-line inline limit enqueues a job for the rest of the buckets: counted, and run only with
// BENCH_DRAIN=1 (reported separately). Baseline (the target's): the same rows written raw, i.e. every
// row the calls wrote (deals with their totals, splits, commission lines, audit rows, events) read back
// and inserted again with the cheapest raw SQL into scratch tables of the same shape (LIKE … INCLUDING
// ALL), one transaction per 1,000 deals with their share of the other rows (bench/lib/raw-rows.mjs).
// Also printed: the narrow baseline (only deals + splits, multi-row INSERTs of 1,000). Same driver,
// same database. Target: ratio ≥ 0.3×.
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { inGroups, rawInserter, scratchCopies } from "./lib/raw-rows.mjs";
import {
  dealBody,
  drainRecalcJobs,
  load,
  openBenchDatabase,
  ownerCtx,
  profiled,
  round,
  seconds,
  seedRepsAndPlans,
} from "./lib/setup.mjs";

const DEALS = Number(process.env.BENCH_DEALS ?? 20000);
const REPS = 1000;
const PER_CALL = 1000;

const { bulkUpsert } = await load("deals/bulk-upsert.js");
const { BulkBody } = await load("deals/schema.js");

const { database, kind, cleanup } = await openBenchDatabase();
const db = database.db;
const t0 = performance.now();
await seedRepsAndPlans(db, { reps: REPS });
console.error(`seeded ${REPS} reps, plans and assignments in ${seconds(t0).toFixed(1)} s`);

const bodies = Array.from({ length: DEALS }, (_, i) => dealBody(i, REPS));

// The service: one bulk upsert per 1,000 deals, each its own transaction.
let jobs = 0;
const serviceStartedAt = Date.now();
const started = performance.now();
await profiled("ingest", async () => {
  for (let i = 0; i < DEALS; i += PER_CALL) {
    const body = BulkBody.parse({ deals: bodies.slice(i, i + PER_CALL) });
    const result = await bulkUpsert(ownerCtx(db), body);
    if (result.meta.created !== body.deals.length) throw new Error(`expected ${body.deals.length} created`);
    if (result.meta.recalculation_job_id) jobs++;
  }
});
const serviceSeconds = seconds(started);
// The jobs the calls enqueued (the rest of the buckets they joined) are deferred work, not part of the
// ingest figure; BENCH_DRAIN=1 runs them to completion and reports that rate too (minutes at 10k+).
let drainSeconds = null;
if (process.env.BENCH_DRAIN === "1") {
  const drainStarted = performance.now();
  await drainRecalcJobs(db);
  drainSeconds = seconds(drainStarted);
}
const lines = Number((await sql`SELECT count(*) AS n FROM commission_lines WHERE kind = 'plan'`.execute(db)).rows[0].n);

// Baseline (the target's): every row the calls wrote, read back and written again raw.
const TABLES = ["deals", "deal_splits", "commission_lines", "audit_events", "events"];
const written = {};
for (const table of TABLES) {
  const order = table === "deal_splits" ? ["deal_id", "position"] : ["id"];
  written[table] = (
    await sql`SELECT * FROM ${sql.table(table)} ORDER BY ${sql.join(order.map((c) => sql.ref(c)))}`.execute(db)
  ).rows;
}
written.audit_events = written.audit_events.filter((r) => r.resource === "deal");
written.events = written.events.filter((r) => r.created_at >= new Date(serviceStartedAt));
await scratchCopies(db, TABLES);
const inserters = {};
for (const table of TABLES) inserters[table] = await rawInserter(db, table, `bench_${table}`);
const sameRowsStarted = performance.now();
for (const group of inGroups(written, DEALS / PER_CALL)) {
  await db.transaction().execute(async (tx) => {
    for (const table of TABLES) await inserters[table](tx, group[table]);
  });
}
const sameRowsSeconds = seconds(sameRowsStarted);

// Narrow baseline (the previous one, for comparison): only deals + splits, multi-row INSERTs.
await sql`CREATE TABLE narrow_deals (LIKE deals INCLUDING ALL)`.execute(db);
await sql`CREATE TABLE narrow_deal_splits (LIKE deal_splits INCLUDING ALL)`.execute(db);
const now = new Date();
const rows = bodies.map((b, i) => ({
  deal: {
    id: `deal_raw${String(i).padStart(8, "0")}`,
    external_id: b.external_id,
    opportunity_name: b.opportunity_name,
    arr_amount: String(b.arr_amount),
    currency: "USD",
    deal_type: b.deal_type,
    close_date: b.close_date,
    owner_id: b.owner_id,
    splits_explicit: b.splits !== undefined,
    status: "pending",
    total_commission: "0",
    created_at: now,
    updated_at: now,
  },
  splits: (b.splits ?? [{ user_id: b.owner_id, percent: 100 }]).map((s, position) => ({
    deal_id: `deal_raw${String(i).padStart(8, "0")}`,
    user_id: s.user_id,
    position,
    percent: String(s.percent),
    close_date: b.close_date,
  })),
}));
const rawStarted = performance.now();
for (let i = 0; i < DEALS; i += PER_CALL) {
  const part = rows.slice(i, i + PER_CALL);
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto("narrow_deals")
      .values(part.map((r) => r.deal))
      .execute();
    const splits = part.flatMap((r) => r.splits);
    for (let j = 0; j < splits.length; j += PER_CALL) {
      await tx
        .insertInto("narrow_deal_splits")
        .values(splits.slice(j, j + PER_CALL))
        .execute();
    }
  });
}
const rawSeconds = seconds(rawStarted);

await database.close();
await cleanup();

const figures = {
  database: kind,
  deals: DEALS,
  reps: REPS,
  deals_per_s: round(DEALS / serviceSeconds, 0),
  rows_written: Object.fromEntries(TABLES.map((t) => [t, written[t].length])),
  same_rows_raw_deals_per_s: round(DEALS / sameRowsSeconds, 0),
  ratio: round(sameRowsSeconds / serviceSeconds, 2),
  narrow_raw_insert_deals_per_s: round(DEALS / rawSeconds, 0),
  narrow_ratio: round(rawSeconds / serviceSeconds, 2),
  calls_that_enqueued_a_job: jobs,
  job_drain_s: drainSeconds === null ? null : round(drainSeconds, 2),
  deals_per_s_including_jobs: drainSeconds === null ? null : round(DEALS / (serviceSeconds + drainSeconds), 0),
  plan_lines: lines,
};
console.log(JSON.stringify(figures));
console.log(
  "\n| date | node | database | deals | reps | bulk ingest deals/s | same rows raw deals/s | ratio (≥ 0.3) | narrow raw INSERT deals/s | narrow ratio | calls that enqueued a job | incl. jobs deals/s |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
console.log(
  `| ${new Date().toISOString().slice(0, 10)} | ${process.version} | ${kind} | ${DEALS} | ${REPS} | ${figures.deals_per_s} | ${figures.same_rows_raw_deals_per_s} | ${figures.ratio} | ${figures.narrow_raw_insert_deals_per_s} | ${figures.narrow_ratio} | ${jobs}/${DEALS / PER_CALL} | ${figures.deals_per_s_including_jobs ?? "not run"} |`,
);
console.log(`\ntarget: ingest ≥ 0.3× the same rows written raw ${figures.ratio >= 0.3 ? "met" : "MISSED"}`);
