// Full-recalculation benchmark against the built code (run `npm run build` first):
//   node bench/recalculate.mjs                                    embedded database in a temp dir
//   BENCH_DATABASE_URL=postgres://… node bench/recalculate.mjs    PostgreSQL (a schema of its own, dropped after)
// 1k reps on 4 active 3-band tiered plans (quarterly quota 100k), BENCH_DEALS pending deals (1 in 10
// split 60/40; default 100,000 on PostgreSQL, the size, whole run ≈ 70–80 s on the 2-core machine of
// bench/README.md; 50,000 embedded, where 100,000 takes ≈ 160 s, over the 2-minute budget) written with
// plain SQL, then one full recalculation to create their lines (inline: limit raised).
// Measured: every plan's tiers edited through the service (`updatePlan`, which enqueues a recalculation
// job, as any change over 1,000 lines does) and the job handler run to completion, so every pending line
// is rewritten with a new amount: lines recalculated/s. Baseline (the target's): the same rows written
// raw with the same change, i.e. every row the recalculation wrote (lines, deal totals, events) written
// again with the cheapest raw SQL, 1,000 lines per transaction (bench/lib/raw-rows.mjs), each line and
// deal set back to the values it had before the recalculation. (Writing a row's current values back
// would be cheaper than any real change: PostgreSQL makes it a HOT update that skips every index, while
// a new total_commission and updated_at must update the deals' indexes.) Also printed: the narrow
// baseline (amount = amount + 0.01 on the same lines, 1,000 ids per statement). Target: ratio ≥ 0.5×.
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { inGroups, rawInserter, rawUpdater, scratchCopies } from "./lib/raw-rows.mjs";
import {
  drainRecalcJobs,
  insertPendingDeals,
  load,
  openBenchDatabase,
  ownerCtx,
  profiled,
  round,
  seconds,
  seedRepsAndPlans,
  tiers,
} from "./lib/setup.mjs";

const DEALS = Number(process.env.BENCH_DEALS ?? (process.env.BENCH_DATABASE_URL ? 100000 : 50000));
const REPS = 1000;
// 4 plans of 250 reps: every plan edit reaches > 1,000 lines, so each runs as a job, as a full
// recalculation of 100k deals would in production.
const PLANS = 4;
const BATCH = 1000;

const { updatePlan } = await load("comp-plans/update.js");
const { setInlineLimit } = await load("commissions/recalc/recalculate.js");
const { UpdatePlanBody } = await load("comp-plans/schema.js");

const { database, kind, cleanup } = await openBenchDatabase();
const db = database.db;
let t0 = performance.now();
const { planIds } = await seedRepsAndPlans(db, { reps: REPS, plans: PLANS });
console.error(`seeded ${REPS} reps, ${planIds.length} plans and assignments in ${seconds(t0).toFixed(1)} s`);

// Pending deals and their splits, raw.
t0 = performance.now();
await insertPendingDeals(db, DEALS, REPS);
console.error(`inserted ${DEALS} deals in ${seconds(t0).toFixed(1)} s`);

/** Edits every plan's tiers through the service and runs the recalculation jobs to completion. */
async function editAllPlans(bump) {
  const ctx = ownerCtx(db);
  let jobs = 0;
  for (const id of planIds) {
    const result = await updatePlan(ctx, id, UpdatePlanBody.parse({ tiers: tiers(bump) }));
    if (result.recalculation_job_id) jobs++;
  }
  await drainRecalcJobs(db);
  return jobs;
}

// The first calculation runs inline (one transaction per plan) to seed the lines quickly; the measured
// one runs as production runs a plan edit this wide: a recalculation job.
t0 = performance.now();
setInlineLimit(Number.MAX_SAFE_INTEGER);
await editAllPlans(0.001);
setInlineLimit(1000);
const firstSeconds = seconds(t0);
const lines = Number(
  (await sql`SELECT count(*) AS n FROM commission_lines WHERE status = 'pending'`.execute(db)).rows[0].n,
);
console.error(`first full calculation: ${lines} pending lines in ${firstSeconds.toFixed(1)} s`);
if (lines < DEALS) throw new Error(`expected at least ${DEALS} pending lines, found ${lines}`);
// A deployment holding this many deals has planner statistics (autovacuum on PostgreSQL, the retention
// run embedded); a database bulk-loaded a second ago has none, so they are taken here, outside the
// measured part (the recalculation's own queries are written to stay index-driven without them).
for (const table of ["deals", "deal_splits", "commission_lines", "plan_assignments", "users", "comp_plans"]) {
  await sql`ANALYZE ${sql.table(table)}`.execute(db);
}

// The rows as they are before the measured recalculation: the baseline writes these values back.
const LINE_COLUMNS = [
  "id",
  "plan_id",
  "plan_version",
  "period",
  "amount",
  "status",
  "explanation",
  "explanation_digest",
  "calculated_at",
];
const linesBefore = await db
  .selectFrom("commission_lines")
  .select(LINE_COLUMNS)
  .where("status", "=", "pending")
  .orderBy("id")
  .execute();
const dealsBefore = new Map(
  (await db.selectFrom("deals").select(["id", "total_commission", "updated_at"]).execute()).map((d) => [d.id, d]),
);

// Measured: the full recalculation.
const since = new Date();
t0 = performance.now();
const jobs = await profiled("recalculate", () => editAllPlans(0.002));
const recalcSeconds = seconds(t0);
const rewritten = Number(
  (
    await sql`SELECT count(*) AS n FROM commission_lines WHERE status = 'pending' AND calculated_at >= ${since}`.execute(
      db,
    )
  ).rows[0].n,
);
if (rewritten !== lines) throw new Error(`expected ${lines} lines recalculated, found ${rewritten}`);

// Baseline (the target's): the same rows, raw, with the same change. Every row the recalculation wrote,
// written again with the cheapest raw SQL and nothing else: the lines and the deals set back to their
// values from before it (UPDATE … FROM jsonb_to_recordset), the events (INSERT into a scratch copy);
// 1,000 lines per transaction with their share of the deals and events.
const rewrittenIds = new Set(
  (
    await db
      .selectFrom("commission_lines")
      .select("id")
      .where("status", "=", "pending")
      .where("calculated_at", ">=", since)
      .execute()
  ).map((r) => r.id),
);
const lineRows = linesBefore.filter((l) => rewrittenIds.has(l.id));
const dealRows = (
  await db.selectFrom("deals").select("id").where("updated_at", ">=", since).orderBy("id").execute()
).map((d) => dealsBefore.get(d.id));
const eventRows = await db.selectFrom("events").selectAll().where("created_at", ">=", since).orderBy("id").execute();
await scratchCopies(db, ["events"]);
const writeLines = await rawUpdater(db, "commission_lines", LINE_COLUMNS);
const writeDeals = await rawUpdater(db, "deals", ["id", "total_commission", "updated_at"]);
const writeEvents = await rawInserter(db, "events", "bench_events");
const groups = inGroups({ lines: lineRows, deals: dealRows, events: eventRows }, Math.ceil(lineRows.length / BATCH));
t0 = performance.now();
for (const group of groups) {
  await db.transaction().execute(async (tx) => {
    await writeLines(tx, group.lines);
    await writeDeals(tx, group.deals);
    await writeEvents(tx, group.events);
  });
}
const sameRowsSeconds = seconds(t0);

// Narrow baseline (the previous one, for comparison): only the lines, only their amount.
const ids = lineRows.map((r) => r.id);
t0 = performance.now();
for (let i = 0; i < ids.length; i += BATCH) {
  await sql`UPDATE commission_lines SET amount = amount + 0.01 WHERE id = ANY(${ids.slice(i, i + BATCH)}::text[])`.execute(
    db,
  );
}
const rawSeconds = seconds(t0);

await database.close();
await cleanup();

const figures = {
  database: kind,
  deals: DEALS,
  reps: REPS,
  lines_recalculated: rewritten,
  recalculation_jobs: jobs,
  recalculation_s: round(recalcSeconds, 2),
  lines_per_s: round(rewritten / recalcSeconds, 0),
  rows_written: { lines: lineRows.length, deals: dealRows.length, events: eventRows.length },
  same_rows_raw_lines_per_s: round(lineRows.length / sameRowsSeconds, 0),
  ratio: round(sameRowsSeconds / recalcSeconds, 2),
  narrow_raw_update_rows_per_s: round(ids.length / rawSeconds, 0),
  narrow_ratio: round(rawSeconds / recalcSeconds, 2),
  inline_first_calculation_lines_per_s: round(lines / firstSeconds, 0),
};
console.log(JSON.stringify(figures));
console.log(
  "\n| date | node | database | pending deals | reps | lines | full recalculation lines/s | same rows raw lines/s | ratio (≥ 0.5) | narrow raw UPDATE rows/s | narrow ratio |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
console.log(
  `| ${new Date().toISOString().slice(0, 10)} | ${process.version} | ${kind} | ${DEALS} | ${REPS} | ${rewritten} | ${figures.lines_per_s} | ${figures.same_rows_raw_lines_per_s} | ${figures.ratio} | ${figures.narrow_raw_update_rows_per_s} | ${figures.narrow_ratio} |`,
);
console.log(`\ntarget: recalculation ≥ 0.5× the same rows written raw ${figures.ratio >= 0.5 ? "met" : "MISSED"}`);
