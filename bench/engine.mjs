// Pure-engine benchmark against the built code (run `npm run build` first): `node bench/engine.mjs`.
// No database. 1k reps on 10 active 3-band tiered plans (quarterly quota 4M, so attainment crosses every
// band; a cap per period that late deals hit; multipliers; a minimum deal amount) and one SPIFF (rate,
// expansion deals ≥ 5,000 closing in Q2–Q3), then BENCH_CREDITS deal credits (default 1,000,000: deals
// over 2026, 1 in 10 split 60/40) in memory. Measured, on one core (`taskset` when it exists): the engine
// of commissions/calculate.ts as the service drives it — creditsOf, findPlan and periodOf per credit,
// SPIFF lines per deal, then calculateBucket per (user, plan, period) bucket — every line with its
// explanation: commission lines/s. Baseline, same run: a plain loop computing the same line amounts in
// integer fixed point (Numbers, no explanations, no general parsing). Every engine amount is compared
// with the baseline's to the cent. Target: ≥ 500,000 lines/s.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

// One core: re-run pinned (GC and compiler threads included) when taskset exists.
if (!process.env.BENCH_PINNED && existsSync("/usr/bin/taskset")) {
  const cpu = String(availableParallelism() - 1);
  const r = spawnSync("/usr/bin/taskset", ["-c", cpu, process.execPath, fileURLToPath(import.meta.url)], {
    stdio: "inherit",
    env: { ...process.env, BENCH_PINNED: cpu },
  });
  process.exit(r.status ?? 1);
}

const dist = new URL("../dist/", import.meta.url);
const { calculateBucket, calculateSpiffLines, creditsOf, findPlan, periodOf } = await import(
  new URL("commissions/engine/index.js", dist).href
);

const CREDITS = Number(process.env.BENCH_CREDITS ?? 1_000_000);
const REPS = 1000;
const PLANS = 10;
const DEALS = Math.ceil(CREDITS / 1.1); // 1 in 10 deals has two credits
const round = (n, digits = 1) => Number(n.toFixed(digits));

// ---- the plans, the SPIFF and the deals, as the database hands them over (numeric text) ----
const QUOTA = 4_000_000;
const TIERS = [
  [0, 50], // [from_attainment in thousandths, rate in thousandths]
  [500, 80],
  [1000, 120],
];
const MULTIPLIER = { expansion: 125, renewal: 50 }; // hundredths; others 100
const MIN_DEAL_CENTS = 200_000;
const capCents = (p) => (300_000 + p * 10_000) * 100;
const repId = (i) => `usr_bench${String(i).padStart(5, "0")}`;
const planId = (p) => `plan_bench${String(p).padStart(2, "0")}`;

const plans = Array.from({ length: PLANS }, (_, p) => ({
  id: planId(p),
  version: 1,
  status: "active",
  currency: "USD",
  period: "quarter",
  quota: `${QUOTA}.00`,
  base_rate: null,
  tiers: TIERS.map(([from, rate]) => ({ from_attainment: String(from / 1000), rate: (rate / 1000).toFixed(6) })),
  deal_type_multipliers: { expansion: "1.250000", renewal: "0.500000" },
  min_deal_amount: (MIN_DEAL_CENTS / 100).toFixed(2),
  cap_per_period: (capCents(p) / 100).toFixed(2),
  effective_from: "2025-01-01",
  effective_to: null,
}));
const planById = new Map(plans.map((p) => [p.id, p]));
const assignmentsOf = new Map(
  Array.from({ length: REPS }, (_, i) => [
    repId(i),
    [
      {
        id: `asg_bench${String(i).padStart(5, "0")}`,
        plan_id: planId(i % PLANS),
        user_id: repId(i),
        effective_from: "2025-01-01",
        effective_to: null,
        quota_override: null,
      },
    ],
  ]),
);
const SPIFF_RATE_MILLI = 10;
const spiffs = [
  {
    id: "spiff_bench",
    name: "Expansion push",
    currency: "USD",
    starts_on: "2026-04-01",
    ends_on: "2026-09-30",
    active: true,
    criteria: { min_arr_amount: "5000.00", deal_types: ["expansion"], user_ids: null },
    payout: { type: "rate", rate: "0.010000" },
  },
];

const pad = (n, w = 2) => String(n).padStart(w, "0");
function makeDeal(i) {
  const h = (Math.imul(i + 1, 2654435761) >>> 0) / 2 ** 32;
  const owner = i % REPS;
  const cents = 100_000 + Math.round(h * 3_900_000);
  const dealType = i % 5 === 0 ? "expansion" : i % 7 === 0 ? "renewal" : "new_business";
  const splits =
    i % 10 === 0
      ? [
          { user_id: repId(owner), percent: "60.0000" },
          { user_id: repId((owner + 1) % REPS), percent: "40.0000" },
        ]
      : [{ user_id: repId(owner), percent: "100.0000" }];
  return {
    id: `deal_bench${String(i).padStart(8, "0")}`,
    arr_amount: (cents / 100).toFixed(2),
    currency: "USD",
    deal_type: dealType,
    close_date: `2026-${pad(1 + Math.floor(h * 12))}-${pad(1 + ((i * 7) % 28))}`,
    created_at: new Date(Date.UTC(2025, 11, 1) + i * 997).toISOString(),
    splits,
    // The baseline's integer view of the same deal (cents, whole percents, multiplier in hundredths).
    n: { cents, multiplier: MULTIPLIER[dealType] ?? 100, percents: splits.map((s) => Number.parseInt(s.percent, 10)) },
  };
}
const t0 = performance.now();
const deals = Array.from({ length: DEALS }, (_, i) => makeDeal(i));
console.error(`built ${DEALS} deals in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// ---- the engine, as the service drives it (recalc/compute.ts: match, bucket, SPIFF lines per credit) ----
const plansOf = new Map([...assignmentsOf].map(([user, list]) => [user, list.map((a) => planById.get(a.plan_id))]));

function runEngine(list, out) {
  const buckets = new Map(); // user_id → that user's buckets (few: one per plan and period)
  for (const deal of list) {
    for (const credit of creditsOf(deal)) {
      const user = credit.user_id;
      const match = findPlan(
        user,
        deal.close_date,
        deal.currency,
        assignmentsOf.get(user) ?? [],
        plansOf.get(user) ?? [],
      );
      if (!("plan" in match)) throw new Error(`no plan: ${match.reason}`);
      const period = periodOf(match.plan.period, deal.close_date);
      let mine = buckets.get(user);
      if (!mine) {
        mine = [];
        buckets.set(user, mine);
      }
      let bucket = mine.find((b) => b.period === period && b.plan.id === match.plan.id);
      if (!bucket) {
        bucket = { plan: match.plan, quota: match.quota, period, userId: user, entries: [] };
        mine.push(bucket);
      }
      bucket.entries.push({ deal, credit: credit.credit, locked: false });
      for (const line of calculateSpiffLines(deal, [credit], spiffs, () => period)) out.spiff.push(line.amount);
    }
  }
  for (const mine of buckets.values()) {
    for (const bucket of mine) for (const line of calculateBucket(bucket)) out.plan.push(line.amount);
  }
}

// ---- the baseline: the same amounts in integer fixed point ----
// credit in 1e-4 (cents × whole percent), rates in 1e-3, multiplier in 1e-2: unrounded in 1e-9.
const dealOrder = (a, b) =>
  a.close_date < b.close_date
    ? -1
    : a.close_date > b.close_date
      ? 1
      : a.created_at < b.created_at
        ? -1
        : a.created_at > b.created_at
          ? 1
          : a.id < b.id
            ? -1
            : 1;
const roundHalfUp = (value, unit) => Math.floor((value + unit / 2) / unit);
const BANDS = TIERS.map(([from, rate], i) => ({
  from: QUOTA * 10 * from, // QUOTA dollars = QUOTA × 1e4 credit units; × from/1000
  to: i + 1 < TIERS.length ? QUOTA * 10 * TIERS[i + 1][0] : Number.POSITIVE_INFINITY,
  rate,
}));

const planOfUser = new Map(Array.from({ length: REPS }, (_, i) => [repId(i), i % PLANS]));

function runBaseline(list, out) {
  const buckets = new Map();
  for (const deal of list) {
    const { cents, multiplier, percents } = deal.n;
    const month = Number(deal.close_date.slice(5, 7));
    const quarter = Math.ceil(month / 3);
    const spiff = deal.deal_type === "expansion" && cents >= 500_000 && month >= 4 && month <= 9;
    for (let s = 0; s < deal.splits.length; s++) {
      const user = deal.splits[s].user_id;
      let mine = buckets.get(user);
      if (!mine) {
        mine = [];
        buckets.set(user, mine);
      }
      let bucket = mine.find((b) => b.quarter === quarter);
      if (!bucket) {
        bucket = { plan: planOfUser.get(user), quarter, entries: [] };
        mine.push(bucket);
      }
      const credit = cents * percents[s];
      bucket.entries.push({ deal, credit, cents, multiplier });
      if (spiff) out.spiff.push(roundHalfUp(credit * SPIFF_RATE_MILLI, 100_000));
    }
  }
  for (const mine of buckets.values()) for (const bucket of mine) priceBucket(bucket, out);
}

function priceBucket({ plan, entries }, out) {
  entries.sort((a, b) => dealOrder(a.deal, b.deal));
  const cap = capCents(plan);
  let prior = 0;
  let used = 0;
  for (const e of entries) {
    const end = prior + e.credit;
    let commission = 0;
    for (const band of BANDS) {
      const slice = Math.min(end, band.to) - Math.max(prior, band.from);
      if (slice > 0) commission += slice * band.rate;
    }
    const rounded = e.cents < MIN_DEAL_CENTS ? 0 : roundHalfUp(commission * e.multiplier, 10_000_000);
    const amount = Math.min(rounded, Math.max(cap - used, 0));
    used += amount;
    prior = end;
    out.plan.push(amount);
  }
}

// Warm both up on a slice of other deals, then measure each once over all of them.
const warm = Array.from({ length: 20_000 }, (_, i) => makeDeal(DEALS + i));
runEngine(warm, { plan: [], spiff: [] });
runBaseline(warm, { plan: [], spiff: [] });

// BENCH_CPU_PROFILE=<dir>: a CPU profile of the measured engine run only (engine.cpuprofile).
async function startProfile() {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return null;
  const { Session } = await import("node:inspector/promises");
  const { mkdirSync, writeFileSync } = await import("node:fs");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  return {
    stop: async () => {
      const { profile } = await session.post("Profiler.stop");
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/engine.cpuprofile`, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

// Wall time is the figure; CPU time (user + system of this process) is printed beside it because other
// jobs on a loaded machine stretch wall time but not CPU time.
function measure(run, out) {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  run(deals, out);
  const used = process.cpuUsage(cpu);
  return [(performance.now() - wall) / 1000, (used.user + used.system) / 1e6];
}
const engineOut = { plan: [], spiff: [] };
const profile = await startProfile();
const [engineSeconds, engineCpu] = measure(runEngine, engineOut);
await profile?.stop();
const baseOut = { plan: [], spiff: [] };
const [baseSeconds, baseCpu] = measure(runBaseline, baseOut);

// Exact to the cent: every line against the baseline's integer computation.
let mismatches = 0;
for (const kind of ["plan", "spiff"]) {
  if (engineOut[kind].length !== baseOut[kind].length) throw new Error(`${kind}: line counts differ`);
  engineOut[kind].forEach((amount, i) => {
    if (Math.round(Number(amount) * 100) !== baseOut[kind][i] || !/^\d+\.\d{2}$/.test(amount)) mismatches++;
  });
}
const lines = engineOut.plan.length + engineOut.spiff.length;
const cents = [...engineOut.plan, ...engineOut.spiff].reduce((s, a) => s + Math.round(Number(a) * 100), 0);
const figures = {
  credits: deals.reduce((n, d) => n + d.splits.length, 0),
  reps: REPS,
  plan_lines: engineOut.plan.length,
  spiff_lines: engineOut.spiff.length,
  capped_zero_lines: engineOut.plan.filter((a) => a === "0.00").length,
  total_commission: (cents / 100).toFixed(2),
  engine_s: round(engineSeconds, 2),
  engine_cpu_s: round(engineCpu, 2),
  engine_lines_per_s: round(lines / engineSeconds, 0),
  engine_lines_per_cpu_s: round(lines / engineCpu, 0),
  baseline_lines_per_s: round(lines / baseSeconds, 0),
  baseline_lines_per_cpu_s: round(lines / baseCpu, 0),
  ratio: round(baseSeconds / engineSeconds, 3),
  mismatched_lines: mismatches,
  cpu: process.env.BENCH_PINNED ?? "unpinned",
  load_average: loadavg().map((l) => round(l, 1)),
};
console.log(JSON.stringify(figures));
console.log(
  "\n| date | node | load | credits | reps | lines (plan + SPIFF) | engine lines/s (per CPU-s) | integer-loop baseline lines/s (per CPU-s) | ratio | lines off by a cent |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
console.log(
  `| ${new Date().toISOString().slice(0, 10)} | ${process.version} | ${figures.load_average[0]} | ${figures.credits} | ${REPS} | ${figures.plan_lines} + ${figures.spiff_lines} | ${figures.engine_lines_per_s} (${figures.engine_lines_per_cpu_s}) | ${figures.baseline_lines_per_s} (${figures.baseline_lines_per_cpu_s}) | ${figures.ratio} | ${mismatches} |`,
);
const met = figures.engine_lines_per_s >= 500_000 && mismatches === 0;
console.log(`\ntarget: ≥ 500,000 lines/s, exact to the cent ${met ? "met" : "MISSED"}`);
if (mismatches > 0) process.exit(1);
