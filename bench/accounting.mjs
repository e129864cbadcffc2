// Commission-cost accounting benchmark (API.md §17) against the built code (run `npm run build` first):
//   BENCH_DATABASE_URL=postgres://… node bench/accounting.mjs   PostgreSQL, 1,000,000 assets (a schema of its own)
//   node bench/accounting.mjs                                    embedded database in a temp dir, 50,000 assets
// (BENCH_ASSETS=N for another count.) Seeded with plain SQL: N approved deals with one plan line each (80 % USD,
// 20 % EUR), each line's asset and its postings. The postings are the service's own: 1,000 asset shapes
// (amounts 100.00–20,000.00, N of 24/36/48/60 months, approvals over 2025–2026, contracts starting up to two
// months before approval — a catch-up — and one in ten adjusted, one in ten clawed back and impaired, one in
// ten clawed back in part) are booked by accounting/book.js's `assetPostings` exactly as approval and the
// later events book them, and each asset copies its shape's postings.
// Measured: GET /api/v1/accounting/roll-forward through the whole app (`inject`: the admin's key, the
// pipeline, validation, the service, the response's serialization) for six spans (a month, a quarter, a
// year, two years, the ten years of the maximum, one in the future), p50 and p95 of 20 calls each.
// Baseline (same run, same database): the same roll-forward as one raw SQL aggregate of the same postings
// sent straight to the driver. Ratio = baseline p50 ÷ API p50; target ≥ 0.5×. Then every span's answer is
// checked against the shapes' schedules summed in JavaScript (schedule.js's `assetSchedule`, × each shape's
// count), to the cent, per currency.
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { benchApp, DATABASE_URL, load, openBenchDatabase, round, seconds } from "./lib/setup.mjs";

const ASSETS = Number(process.env.BENCH_ASSETS ?? (DATABASE_URL ? 1_000_000 : 50_000));
if (!Number.isInteger(ASSETS) || ASSETS < 1) throw new Error(`BENCH_ASSETS: a positive integer, not ${ASSETS}`);
const SHAPES = 1000;
const USERS = 1000;
const SAMPLES = 20;
const WARM = 3;

const { assetPostings } = await load("accounting/book.js");
const { assetSchedule, monthIndex, monthLabel } = await load("accounting/schedule.js");
const { rollForwardSql } = await load("accounting/repository.js");
const { parse, plain, plus, ZERO, fx, times } = await load("money/index.js");
const { loadavg } = await import("node:os");

const { database, kind, cleanup } = await openBenchDatabase();
const db = database.db;

// A small deterministic generator, so every run books the same shapes.
let state = 20261129;
const random = () => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
};

/** The 1,000 shapes: an asset row (without its line) and the events that moved it. */
function shapes() {
  const out = [];
  for (let k = 0; k < SHAPES; k++) {
    const cents = 10_000 + Math.floor(random() * 1_990_000);
    const amount = (cents / 100).toFixed(2);
    const months = [24, 36, 48, 60][k % 4];
    const approval = monthIndex("2025-01") + Math.floor(random() * 24);
    const start = approval - (k % 3);
    const approvedOn = `${monthLabel(approval)}-${String(1 + (k % 28)).padStart(2, "0")}`;
    const events = [];
    const at = (n) => ({ month: monthLabel(approval + n), booked_on: `${monthLabel(approval + n)}-15` });
    if (k % 10 === 0) events.push({ type: "adjustment", ...at(6), amount: parse("120.00"), source_line_id: null });
    if (k % 10 === 1) {
      events.push({ type: "clawback", ...at(5), amount: parse((cents / 200).toFixed(2)), source_line_id: null });
      events.push({ type: "impairment", ...at(5), source_line_id: null });
    }
    if (k % 10 === 2)
      events.push({ type: "clawback", ...at(3), amount: parse((cents / 400).toFixed(2)), source_line_id: null });
    const row = {
      line_id: `shape${k}`,
      deal_id: "",
      user_id: "",
      plan_id: null,
      kind: "plan",
      currency: "USD",
      amount,
      treatment: "capitalized",
      months,
      start_month: start,
      approval_month: approval,
      approved_on: approvedOn,
      last_month: approval,
      created_at: new Date(),
    };
    const { postings, lastMonth } = assetPostings(row, events);
    out.push({ k, row: { ...row, last_month: lastMonth }, events, postings });
  }
  return out;
}

const user = (expr) => sql`'usr_a' || lpad((${sql.raw(expr)})::text, 5, '0')`;
const line = (expr) => sql`'com_a' || lpad((${sql.raw(expr)})::text, 8, '0')`;
const deal = (expr) => sql`'deal_a' || lpad((${sql.raw(expr)})::text, 8, '0')`;
const currencyOf = (i) => (i % 5 === 4 ? "EUR" : "USD");

async function seed(all) {
  await sql`
    INSERT INTO users (id, name, email, role, active, created_at, updated_at)
    SELECT ${user("i")}, 'Person ' || i, 'person' || i || '@bench.example', 'rep', true, now(), now()
    FROM generate_series(0, ${USERS - 1}::int) AS i`.execute(db);
  await sql`CREATE TABLE bench_shapes (k int PRIMARY KEY, amount numeric, months int, start_month int,
    approval_month int, approved_on date, last_month int)`.execute(db);
  await sql`CREATE TABLE bench_shape_postings (k int, type text, first_month int, last_month int, booked_on date,
    amount numeric)`.execute(db);
  for (let i = 0; i < all.length; i += 200) {
    const part = all.slice(i, i + 200);
    await db
      .insertInto("bench_shapes")
      .values(
        part.map((s) => ({
          k: s.k,
          amount: s.row.amount,
          months: s.row.months,
          start_month: s.row.start_month,
          approval_month: s.row.approval_month,
          approved_on: s.row.approved_on,
          last_month: s.row.last_month,
        })),
      )
      .execute();
    await db
      .insertInto("bench_shape_postings")
      .values(
        part.flatMap((s) =>
          s.postings.map((p) => ({
            k: s.k,
            type: p.type,
            first_month: p.first_month,
            last_month: p.last_month,
            booked_on: p.booked_on,
            amount: p.amount,
          })),
        ),
      )
      .execute();
  }
  const CHUNK = 100_000;
  for (let from = 0; from < ASSETS; from += CHUNK) {
    const to = Math.min(ASSETS, from + CHUNK) - 1;
    await db.transaction().execute(async (tx) => {
      const g = sql`SELECT i, s.* FROM generate_series(${from}::int, ${to}::int) AS i JOIN bench_shapes s ON s.k = i % ${SHAPES}`;
      await sql`
        INSERT INTO deals (id, opportunity_name, arr_amount, currency, deal_type, close_date, owner_id,
          splits_explicit, status, total_commission, approved_at, created_at, updated_at)
        SELECT ${deal("i")}, 'Opportunity ' || i, amount * 10, CASE WHEN i % 5 = 4 THEN 'EUR' ELSE 'USD' END,
          'new_business', approved_on, ${user(`i % ${USERS}`)}, false, 'approved', amount, approved_on, now(), now()
        FROM (${g}) g`.execute(tx);
      await sql`
        INSERT INTO commission_lines (id, deal_id, user_id, kind, period, amount, status, locked, explanation,
          calculated_at, created_at)
        SELECT ${line("i")}, ${deal("i")}, ${user(`i % ${USERS}`)}, 'plan', to_char(approved_on, 'YYYY-MM'), amount,
          'approved', true, '{}'::jsonb, now(), now()
        FROM (${g}) g`.execute(tx);
      await sql`
        INSERT INTO accounting_assets (line_id, deal_id, user_id, kind, currency, amount, treatment, months,
          start_month, approval_month, approved_on, last_month, created_at)
        SELECT ${line("i")}, ${deal("i")}, ${user(`i % ${USERS}`)}, 'plan',
          CASE WHEN i % 5 = 4 THEN 'EUR' ELSE 'USD' END, amount, 'capitalized', months, start_month,
          approval_month, approved_on, last_month, now()
        FROM (${g}) g`.execute(tx);
      await sql`
        INSERT INTO accounting_postings (line_id, currency, type, first_month, last_month, booked_on, amount)
        SELECT ${line("i")}, CASE WHEN i % 5 = 4 THEN 'EUR' ELSE 'USD' END, p.type, p.first_month, p.last_month,
          p.booked_on, p.amount
        FROM generate_series(${from}::int, ${to}::int) AS i JOIN bench_shape_postings p ON p.k = i % ${SHAPES}`.execute(
        tx,
      );
    });
  }
  for (const table of ["deals", "commission_lines", "accounting_assets", "accounting_postings"])
    await sql`VACUUM ANALYZE ${sql.table(table)}`.execute(db);
}

/** The roll-forward of a span from the shapes' schedules, × how many assets of each currency copy each shape. */
function expected(all, from, to) {
  const f = monthIndex(from);
  const t = monthIndex(to);
  const sums = new Map();
  for (const s of all) {
    const schedule = assetSchedule(
      {
        amount: parse(s.row.amount),
        places: 2,
        months: s.row.months,
        start_month: monthLabel(s.row.start_month),
        approval_month: monthLabel(s.row.approval_month),
      },
      s.events,
    );
    const zero = {
      opening: ZERO,
      additions: ZERO,
      adjustments: ZERO,
      amortization: ZERO,
      clawbacks: ZERO,
      impairment: ZERO,
      current: ZERO,
    };
    const one = { ...zero };
    for (const m of schedule) {
      const i = monthIndex(m.month);
      if (i < f) {
        const out = plus(plus(m.amortization, m.clawback), m.impairment);
        one.opening = plus(one.opening, plus(plus(m.addition, m.adjustment), times(out, fx(-1))));
      } else if (i <= t) {
        one.additions = plus(one.additions, m.addition);
        one.adjustments = plus(one.adjustments, m.adjustment);
        one.amortization = plus(one.amortization, m.amortization);
        one.clawbacks = plus(one.clawbacks, m.clawback);
        one.impairment = plus(one.impairment, m.impairment);
      } else if (i <= t + 12) one.current = plus(one.current, m.amortization);
    }
    // How many assets copy shape k in each currency: i ≡ k (mod 1,000), EUR when i ≡ 4 (mod 5).
    const copies = { USD: 0, EUR: 0 };
    for (let i = s.k; i < ASSETS; i += SHAPES) copies[currencyOf(i)]++;
    for (const [currency, n] of Object.entries(copies)) {
      if (n === 0) continue;
      const acc = sums.get(currency) ?? { ...zero };
      for (const key of Object.keys(zero)) acc[key] = plus(acc[key], times(one[key], fx(n)));
      sums.set(currency, acc);
    }
  }
  return [...sums]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, v]) => ({
      currency,
      ...Object.fromEntries(Object.entries(v).map(([k, x]) => [k, Number(plain(x))])),
    }));
}

const t0 = performance.now();
const all = shapes();
await seed(all);
const seeded = seconds(t0);
const postings = Number((await sql`SELECT count(*) AS n FROM accounting_postings`.execute(db)).rows[0].n);
console.error(`seeded ${ASSETS} assets with ${postings} postings (${kind}) in ${round(seeded)} s`);

const { app, key } = await benchApp(database, { scope: "read", name: "accounting" });

const SPANS = [
  ["2026-03", "2026-03"],
  ["2026-01", "2026-03"],
  ["2026-01", "2026-12"],
  ["2025-01", "2026-12"],
  ["2025-01", "2034-12"],
  ["2027-01", "2027-12"],
];
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
async function timed(call) {
  for (let i = 0; i < WARM; i++) await call();
  const ms = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await call();
    ms.push(performance.now() - started);
  }
  return { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95) };
}

const results = [];
let wrong = 0;
for (const [from, to] of SPANS) {
  const url = `/api/v1/accounting/roll-forward?from=${from}&to=${to}`;
  let answer;
  const measured = await timed(async () => {
    const res = await app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key}` } });
    if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    answer = res.json();
  });
  const baseline = await timed(() => rollForwardSql(monthIndex(from), monthIndex(to)).execute(db));
  const want = expected(all, from, to);
  const got = answer.data.map(
    ({ currency, opening, additions, adjustments, amortization, clawbacks, impairment, current }) => ({
      currency,
      opening,
      additions,
      adjustments,
      amortization,
      clawbacks,
      impairment,
      current,
    }),
  );
  const same =
    JSON.stringify(got) ===
    JSON.stringify(want.filter((w) => Object.values(w).some((v) => v !== 0 && typeof v === "number")));
  if (!same) {
    wrong++;
    console.error(
      `${from}…${to}: the API answered ${JSON.stringify(got)}, the shapes' schedules say ${JSON.stringify(want)}`,
    );
  }
  results.push({ span: `${from}…${to}`, measured, baseline, ratio: baseline.p50 / measured.p50, same });
}
await app.close();
await database.close();
await cleanup();

const figures = {
  database: kind,
  assets: ASSETS,
  postings,
  seeded_s: round(seeded),
  load: round(loadavg()[0], 2),
  spans: results.map((r) => ({
    span: r.span,
    api_p50_ms: round(r.measured.p50),
    api_p95_ms: round(r.measured.p95),
    sql_p50_ms: round(r.baseline.p50),
    sql_p95_ms: round(r.baseline.p95),
    ratio: round(r.ratio, 2),
    exact: r.same,
  })),
};
console.log(JSON.stringify(figures));
console.log("\n| span | API p50 | API p95 | same-run SQL p50 | SQL p95 | ratio (SQL ÷ API, p50) | exact |");
console.log("|---|---|---|---|---|---|---|");
for (const r of figures.spans) {
  console.log(
    `| ${r.span} | ${r.api_p50_ms} ms | ${r.api_p95_ms} ms | ${r.sql_p50_ms} ms | ${r.sql_p95_ms} ms | ${r.ratio}× | ${r.exact ? "yes" : "NO"} |`,
  );
}
const worst = Math.min(...results.map((r) => r.ratio));
console.log(
  `target: roll-forward over ${ASSETS} assets ≥ 0.5× its raw SQL aggregate (worst span ${round(worst, 2)}×) ${worst >= 0.5 ? "met" : "MISSED"}`,
);
console.log(`target: every span equal to the shapes' schedules summed, to the cent ${wrong === 0 ? "met" : "MISSED"}`);
if (wrong > 0) process.exitCode = 1;
