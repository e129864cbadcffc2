// Plan-change impact benchmark (issue #16) against the built code (run `npm run build` first):
//   node bench/plan-impact.mjs                                    embedded database in a temp dir
//   BENCH_DATABASE_URL=postgres://… node bench/plan-impact.mjs    PostgreSQL (a schema of its own, dropped after)
// 1k reps on ONE active 3-band tiered plan (quarterly quota 100k), so one edit reaches every line;
// BENCH_DEALS deals (1 in 10 split 60/40; default 100,000 on PostgreSQL, the size; 50,000
// embedded) written with plain SQL, their lines calculated by the recalculation job, then 1 deal in 5
// approved (its lines locked, as approval does), so both sides of the impact have work.
// Measured, alternating BENCH_ROUNDS times (default 2), on the same tiers edit (every rate + 0.001):
//  - the impact: `requestPlanChangeImpact`, the function POST /comp-plans/{id}/impact runs (first page of 25),
//    with its inline limit raised to the bench's size so it answers within the call (past the limit the route
//    queues a `plan_impact` job, whose handler runs the same `impactOfChange`),
//    lines/s over the lines it computes (every pending line of the plan recalculated, every locked line
//    repriced; the script checks every one of them is reported changed), its wall time and peak RSS;
//  - the baseline (the target's): the recalculation's compute part for the same edit, i.e. what the PATCH
//    computes before writing — the plan row updated as the PATCH updates it, `planRecalc` over the same
//    target, nothing applied, rolled back — lines/s over the lines it computes. Also printed: the same
//    compute as the job runs it (affected users in batches of ~5,000 credits, one `planRecalc` each).
// Target: impact ≥ 0.8× the recalculation's compute rate (it writes nothing).
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { sql } from "kysely";
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
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const REPS = 1000;
const LOCKED_ONE_IN = 5;

const { updatePlan } = await load("comp-plans/update.js");
const { planEdit } = await load("comp-plans/edit.js");
const { requestPlanChangeImpact, setImpactInlineLimit } = await load("comp-plans/impact-job.js");
const repo = await load("comp-plans/repository.js");
const { UpdatePlanBody, PlanImpactQuery } = await load("comp-plans/schema.js");
const { planRecalc } = await load("commissions/recalc/plan.js");
const { affectedUsers } = await load("commissions/recalc/credits-repository.js");
const { batchUsers } = await load("commissions/recalc/recalculate-job.js");

const { database, kind, cleanup } = await openBenchDatabase();
const db = database.db;
let t0 = performance.now();
const {
  planIds: [planId],
} = await seedRepsAndPlans(db, { reps: REPS, plans: 1 });
await insertPendingDeals(db, DEALS, REPS);
console.error(`seeded ${REPS} reps, 1 plan, ${DEALS} deals in ${seconds(t0).toFixed(1)} s`);

// Their lines, as production writes an edit this wide: the recalculation job.
t0 = performance.now();
await updatePlan(ownerCtx(db), planId, UpdatePlanBody.parse({ tiers: tiers(0.001) }));
await drainRecalcJobs(db);
console.error(`first calculation in ${seconds(t0).toFixed(1)} s`);

// 1 deal in 5 approved: the deal's status and its lines locked, as approval leaves them.
const approved = sql`(SELECT id FROM deals WHERE substr(id, 7)::int % ${LOCKED_ONE_IN} = 0)`;
await db.transaction().execute(async (tx) => {
  await sql`UPDATE deals SET status = 'approved', approved_at = now(), updated_at = now() WHERE id IN ${approved}`.execute(
    tx,
  );
  await sql`UPDATE commission_lines SET locked = true, status = 'approved'
            WHERE status = 'pending' AND deal_id IN ${approved}`.execute(tx);
});
for (const table of ["deals", "deal_splits", "commission_lines", "plan_assignments", "users", "comp_plans"]) {
  await sql`ANALYZE ${sql.table(table)}`.execute(db);
}
const count = async (where) =>
  Number(
    (
      await sql`SELECT count(*) AS n FROM commission_lines WHERE plan_id = ${planId} AND kind = 'plan' AND ${where}`.execute(
        db,
      )
    ).rows[0].n,
  );
const pendingLines = await count(sql`status = 'pending'`);
const lockedLines = await count(sql`locked AND status <> 'void'`);
console.error(`${pendingLines} pending lines, ${lockedLines} locked lines`);

const edit = UpdatePlanBody.parse({ tiers: tiers(0.002) });
const target = [{ type: "plan", plan_id: planId }];
const ROLLBACK = new Error("rollback");

/** The PATCH's compute part: the plan row edited as the PATCH edits it, then its plan(s), rolled back. */
async function recalcCompute(batched) {
  let computed = 0;
  let elapsed = 0;
  await db
    .transaction()
    .execute(async (tx) => {
      const before = await repo.findPlanRecord(tx, planId);
      const { record, newVersion } = await planEdit(tx, before, edit, new Date());
      await repo.updatePlan(tx, record, newVersion);
      const t = performance.now();
      const batches = batched ? batchUsers(await affectedUsers(tx, target)) : [undefined];
      for (const users of batches) {
        const { diff } = await planRecalc(tx, target, { users });
        computed += diff.inserts.length + diff.updates.length + diff.unsure.length;
      }
      elapsed = seconds(t);
      throw ROLLBACK;
    })
    .catch((e) => {
      if (e !== ROLLBACK) throw e;
    });
  if (computed !== pendingLines) throw new Error(`recalculation computed ${computed} lines, expected ${pendingLines}`);
  return { lines: computed, seconds: elapsed, lines_per_s: round(computed / elapsed, 0) };
}

/** Peak RSS while `fn` runs, sampled every 10 ms (the event loop turns at every database round trip). */
async function withPeakRss(fn) {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

// A full collection before the impact, so its peak is measured from the live heap (not the seeding's garbage).
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc");

setImpactInlineLimit(Number.MAX_SAFE_INTEGER);

async function impact(round_) {
  gc();
  const rssBefore = process.memoryUsage.rss();
  const t = performance.now();
  const { result, peak } = await withPeakRss(() =>
    profiled(`plan-impact-${round_}`, async () => {
      const reply = await requestPlanChangeImpact(ownerCtx(db), planId, edit, PlanImpactQuery.parse({}));
      if (!("answer" in reply)) throw new Error("the impact was queued as a job: raise the inline limit");
      return reply.answer;
    }),
  );
  const elapsed = seconds(t);
  const computed = pendingLines + lockedLines;
  if (result.summary.lines !== computed) throw new Error(`impact listed ${result.summary.lines} lines of ${computed}`);
  return {
    lines: computed,
    seconds: elapsed,
    lines_per_s: round(computed / elapsed, 0),
    rss_before_mb: round(rssBefore / 2 ** 20, 0),
    rss_peak_mb: round(peak / 2 ** 20, 0),
    rss_growth_mb: round((peak - rssBefore) / 2 ** 20, 0),
    summary: result.summary,
  };
}

const { loadavg } = await import("node:os");
const load1 = () => round(loadavg()[0], 2);
const rounds = [];
for (let r = 1; r <= ROUNDS; r++) {
  const loadBefore = load1();
  const recalc = await recalcCompute(false);
  const recalcBatched = await recalcCompute(true);
  const measured = await impact(r);
  const row = {
    round: r,
    load: [loadBefore, load1()],
    impact: measured,
    recalc_compute: recalc,
    recalc_compute_job_batches: recalcBatched,
    ratio: round(measured.lines_per_s / recalc.lines_per_s, 2),
    ratio_vs_job_batches: round(measured.lines_per_s / recalcBatched.lines_per_s, 2),
  };
  console.error(JSON.stringify(row));
  rounds.push(row);
}

await database.close();
await cleanup();

const summary = rounds[rounds.length - 1].impact.summary;
console.log(
  JSON.stringify({
    database: kind,
    deals: DEALS,
    pending_lines: pendingLines,
    locked_lines: lockedLines,
    impact_summary: { ...summary },
    rounds: rounds.map(({ impact: i, ...r }) => ({ ...r, impact: { ...i, summary: undefined } })),
  }),
);
console.log(
  "\n| date | node | database | deals | lines (pending + locked) | load (1 min) | impact lines/s | impact wall s | impact peak RSS MB (growth) | recalc compute lines/s (pending) | ratio (≥ 0.8) | job-batched compute lines/s | ratio |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const r of rounds) {
  console.log(
    `| ${new Date().toISOString().slice(0, 10)} | ${process.version} | ${kind} | ${DEALS} | ${pendingLines} + ${lockedLines} | ${r.load.join("–")} | ${r.impact.lines_per_s} | ${round(r.impact.seconds, 1)} | ${r.impact.rss_peak_mb} (+${r.impact.rss_growth_mb}) | ${r.recalc_compute.lines_per_s} | ${r.ratio} | ${r.recalc_compute_job_batches.lines_per_s} | ${r.ratio_vs_job_batches} |`,
  );
}
const worst = Math.min(...rounds.map((r) => r.ratio));
console.log(
  `\ntarget: impact ≥ 0.8× the recalculation's compute rate ${worst >= 0.8 ? "met" : "MISSED"} (worst round ${worst})`,
);
