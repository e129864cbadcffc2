// CSV import benchmark (API.md §19, issue #30) against the built code (run `npm run build` first):
//   node bench/imports.mjs                                    embedded database in a temp dir
//   BENCH_DATABASE_URL=postgres://… node bench/imports.mjs    PostgreSQL (a schema of its own, dropped after)
// 2,000 reps on 3-band tiered plans in two groups of 1,000 alike. Baseline (same run, same database): the
// bulk endpoint, BENCH_DEALS deals (default 50,000) for the first group as POST /deals/bulk calls of 1,000
// through the whole app (`inject`, a write key), half before and half after the measured import. Measured: the same deals for the second group as one CSV
// file, one POST /imports/deals (its checks, then the bulk upsert 1,000 at a time in one transaction).
// Both bodies are built before the clock starts. Figure: import deals/s ÷ bulk deals/s (target ≥ 0.8×).
// Also printed: the peak RSS while the import ran (PGlite's thread included, embedded), the same file
// again (every row unchanged), its dry run, and a check that both groups got the same number of lines.
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { benchApp, dealBody, openBenchDatabase, repId, round, seconds, seedRepsAndPlans } from "./lib/setup.mjs";

const DEALS = Number(process.env.BENCH_DEALS ?? 50000);
const REPS = 1000;
const PER_CALL = 1000;

const { loadavg } = await import("node:os");

const { database, kind, cleanup } = await openBenchDatabase();
const db = database.db;
const t0 = performance.now();
await seedRepsAndPlans(db, { reps: 2 * REPS });
console.error(`seeded ${2 * REPS} reps, plans and assignments in ${seconds(t0).toFixed(1)} s`);

const { app, key } = await benchApp(database, {
  scope: "write",
  name: "bench",
  perKeyLimit: { limit: 100_000, windowMs: 60_000 },
});
const headers = (type) => ({ authorization: `Bearer ${key}`, "content-type": type });

/** `dealBody(i)` for the group starting at rep `offset`, under its own external ids. */
function bodyOf(i, offset, prefix) {
  const b = dealBody(i, REPS);
  const shift = (id) => repId(Number(id.slice("usr_bench".length)) + offset);
  return {
    ...b,
    external_id: `${prefix}-${i}`,
    owner_id: shift(b.owner_id),
    ...(b.splits && { splits: b.splits.map((s) => ({ ...s, user_id: shift(s.user_id) })) }),
  };
}

// Baseline: POST /deals/bulk, 1,000 deals a call, for reps 0–999: half before the import, half after, so
// the machine's load drifting during the run weighs on both sides alike.
const payloads = [];
for (let i = 0; i < DEALS; i += PER_CALL) {
  const deals = Array.from({ length: Math.min(PER_CALL, DEALS - i) }, (_, k) => bodyOf(i + k, 0, "bulk"));
  payloads.push(JSON.stringify({ deals }));
}
let bulkJobs = 0;
let bulkSeconds = 0;
async function bulk(part) {
  const started = performance.now();
  for (const payload of part) {
    const res = await app.inject({
      method: "POST",
      url: "/api/v1/deals/bulk",
      headers: headers("application/json"),
      payload,
    });
    if (res.statusCode !== 200) throw new Error(`POST /deals/bulk: ${res.statusCode} ${res.body.slice(0, 500)}`);
    if (res.json().meta.recalculation_job_id) bulkJobs++;
  }
  bulkSeconds += seconds(started);
}
const half = Math.ceil(payloads.length / 2);
await bulk(payloads.slice(0, half));

// Measured: the same deals for reps 1,000–1,999 as one CSV file.
const rows = ["external_id,opportunity_name,arr_amount,close_date,owner_id,deal_type,split_user_ids,split_percents"];
for (let i = 0; i < DEALS; i++) {
  const b = bodyOf(i, REPS, "imp");
  const ids = b.splits?.map((s) => s.user_id).join(";") ?? "";
  const percents = b.splits?.map((s) => s.percent).join(";") ?? "";
  rows.push(
    `${b.external_id},${b.opportunity_name},${b.arr_amount},${b.close_date},${b.owner_id},${b.deal_type},${ids},${percents}`,
  );
}
const file = `${rows.join("\r\n")}\r\n`;
const jobsBefore = Number((await sql`SELECT count(*) AS n FROM jobs`.execute(db)).rows[0].n);
let peakRss = process.memoryUsage().rss;
const rssBefore = peakRss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
const importStarted = performance.now();
const imported = await app.inject({
  method: "POST",
  url: "/api/v1/imports/deals",
  headers: headers("text/csv"),
  payload: file,
});
const importSeconds = seconds(importStarted);
clearInterval(sampler);
if (imported.statusCode !== 200)
  throw new Error(`POST /imports/deals: ${imported.statusCode} ${imported.body.slice(0, 500)}`);
if (imported.json().created !== DEALS) throw new Error(`expected ${DEALS} created: ${imported.body.slice(0, 300)}`);
const importJobs = Number((await sql`SELECT count(*) AS n FROM jobs`.execute(db)).rows[0].n) - jobsBefore;

await bulk(payloads.slice(half));

// The same file again (every row unchanged, nothing written) and its dry run.
const againStarted = performance.now();
const again = await app.inject({
  method: "POST",
  url: "/api/v1/imports/deals",
  headers: headers("text/csv"),
  payload: file,
});
const againSeconds = seconds(againStarted);
if (again.json().unchanged !== DEALS) throw new Error(`expected ${DEALS} unchanged: ${again.body.slice(0, 300)}`);
const dryStarted = performance.now();
const dry = await app.inject({
  method: "POST",
  url: "/api/v1/imports/deals?dry_run=true",
  headers: headers("text/csv"),
  payload: file,
});
const drySeconds = seconds(dryStarted);
if (dry.json().rows.length !== DEALS) throw new Error("expected a dry-run row per deal");

// Both groups are alike: the same number of plan lines each.
const lines = (
  await sql`
  SELECT (d.external_id LIKE 'imp-%') AS imported, count(*) AS n FROM commission_lines l JOIN deals d ON d.id = l.deal_id
  WHERE l.kind = 'plan' GROUP BY 1 ORDER BY 1`.execute(db)
).rows.map((r) => Number(r.n));

await app.close();
await database.close();
await cleanup();

const figures = {
  database: kind,
  deals: DEALS,
  file_mib: round(Buffer.byteLength(file) / 2 ** 20, 1),
  bulk_deals_per_s: round(DEALS / bulkSeconds, 0),
  bulk_s: round(bulkSeconds, 1),
  import_deals_per_s: round(DEALS / importSeconds, 0),
  import_s: round(importSeconds, 1),
  ratio: round(bulkSeconds / importSeconds, 2),
  import_peak_rss_mib: round(peakRss / 2 ** 20, 0),
  import_rss_growth_mib: round((peakRss - rssBefore) / 2 ** 20, 0),
  same_file_again_s: round(againSeconds, 1),
  dry_run_s: round(drySeconds, 1),
  bulk_calls_that_enqueued_a_job: `${bulkJobs}/${payloads.length}`,
  import_jobs_enqueued: importJobs,
  plan_lines_bulk_vs_import: lines,
  load_average: loadavg().map((l) => round(l, 1)),
};
console.log(JSON.stringify(figures));
console.log(
  "\n| date | node | database | deals | file | bulk deals/s | import deals/s | ratio (≥ 0.8) | import s | peak RSS | same file again | dry run | jobs bulk / import | load |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
console.log(
  `| ${new Date().toISOString().slice(0, 10)} | ${process.version} | ${kind} | ${DEALS} | ${figures.file_mib} MiB | ${figures.bulk_deals_per_s} | ${figures.import_deals_per_s} | ${figures.ratio} | ${figures.import_s} s | ${figures.import_peak_rss_mib} MiB (+${figures.import_rss_growth_mib}) | ${figures.same_file_again_s} s | ${figures.dry_run_s} s | ${bulkJobs} / ${importJobs} | ${figures.load_average[0]} |`,
);
if (lines[0] !== lines[1]) throw new Error(`the groups' plan lines differ: ${lines.join(" vs ")}`);
console.log(`\ntarget: import ≥ 0.8× the bulk endpoint's deals/s ${figures.ratio >= 0.8 ? "met" : "MISSED"}`);
