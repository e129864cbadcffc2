// Shared by the benchmarks (ingest, recalculate, plan-impact): a database of the benchmark's own (PGlite in a
// temp dir, or a schema of its own on BENCH_DATABASE_URL, dropped after) and 1k reps on tiered plans.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pino from "pino";

export const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const dist = new URL("../../dist/", import.meta.url);
export const load = (path) => import(new URL(path, dist).href);

const { openDatabase } = await load("db/connect.js");
const { migrate } = await load("db/migrate.js");
const { makeCtx, OWNER } = await load("context.js");
const { createPlan } = await load("comp-plans/create.js");
const { createAssignment } = await load("comp-plans/assign.js");
const { CreatePlanBody, CreateAssignmentBody } = await load("comp-plans/schema.js");

export const round = (n, digits = 1) => Number(n.toFixed(digits));
export const seconds = (t0) => (performance.now() - t0) / 1000;
export const ownerCtx = (db) => makeCtx(db, "bench", OWNER);

const { buildApp } = await load("app/build.js");
const { createKey } = await load("api-keys/create.js");
const { createRateLimitStore } = await load("rate-limit/select.js");

/**
 * The whole app as `cts serve` builds it over the bench's database (the rate-limit store the deployment
 * would pick, a warn-level logger), and a key of `scope` to call it with.
 */
export async function benchApp(
  database,
  { scope, name = "bench", perKeyLimit = { limit: 1_000_000, windowMs: 60_000 } },
) {
  const logger = pino({ level: "warn" });
  const rateLimits = createRateLimitStore({ redisUrl: undefined, databaseUrl: DATABASE_URL }, database.db, logger);
  const { app } = await buildApp({
    db: database.db,
    pglite: database.pglite,
    env: "bench",
    logger,
    rateLimits,
    perKeyLimit,
  });
  const { key } = await createKey(ownerCtx(database.db), { name, scope });
  return { app, key, logger };
}

export async function openBenchDatabase() {
  if (!DATABASE_URL) {
    const dir = mkdtempSync(join(tmpdir(), "cts-bench-"));
    const database = await openDatabase({ dataDir: join(dir, "pgdata") });
    await migrate(database.db);
    return { database, kind: "embedded", cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `bench_${randomBytes(4).toString("hex")}`;
  const admin = await openDatabase({ url: DATABASE_URL, poolSize: 1 });
  await admin.db.schema.createSchema(schema).execute();
  const database = await openDatabase({ url: DATABASE_URL, schema, poolSize: 10 });
  await migrate(database.db);
  const cleanup = async () => {
    await admin.db.schema.dropSchema(schema).cascade().execute();
    await admin.close();
  };
  return { database, kind: "postgresql", cleanup };
}

/** 3-band graduated tiers over quarterly attainment; `bump` shifts every rate so every line moves. */
export const tiers = (bump = 0) =>
  [
    [0, 0.05],
    [0.5, 0.08],
    [1, 0.12],
  ].map(([from, rate]) => ({ from_attainment: from, rate: Number((rate + bump).toFixed(6)) }));

export const repId = (i) => `usr_bench${String(i).padStart(5, "0")}`;

/**
 * `reps` users (plain SQL: users are not what is measured), `plans` active tiered plans through the
 * service, and one open-ended assignment per rep through the service (round-robin over the plans).
 */
export async function seedRepsAndPlans(db, { reps = 1000, plans = 10 } = {}) {
  const now = new Date();
  const users = Array.from({ length: reps }, (_, i) => ({
    id: repId(i),
    name: `Rep ${i}`,
    email: `rep${i}@bench.example`,
    role: "rep",
    active: true,
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < users.length; i += 500)
    await db
      .insertInto("users")
      .values(users.slice(i, i + 500))
      .execute();
  const ctx = ownerCtx(db);
  const planIds = [];
  for (let p = 0; p < plans; p++) {
    const body = CreatePlanBody.parse({
      name: `Bench plan ${p}`,
      period: "quarter",
      quota: 100000,
      tiers: tiers(),
      effective_from: "2025-01-01",
    });
    planIds.push((await createPlan(ctx, body)).id);
  }
  for (let i = 0; i < reps; i++) {
    const body = CreateAssignmentBody.parse({ user_id: repId(i), effective_from: "2025-01-01" });
    await createAssignment(ctx, planIds[i % plans], body);
  }
  return { userIds: users.map((u) => u.id), planIds };
}

/** A deterministic pseudo-random deal body (API shape): 2026, amounts 1k–40k, 1 in 10 split 60/40. */
export function dealBody(i, reps) {
  const h = (Math.imul(i + 1, 2654435761) >>> 0) / 2 ** 32;
  const owner = repId(i % reps);
  const month = 1 + Math.floor(h * 12);
  const day = 1 + ((i * 7) % 28);
  const body = {
    external_id: `crm-${i}`,
    opportunity_name: `Opportunity ${i}`,
    arr_amount: (100000 + Math.round(h * 3900000)) / 100,
    close_date: `2026-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`,
    owner_id: owner,
    deal_type: i % 5 === 0 ? "expansion" : "new_business",
  };
  if (i % 10 === 0) {
    body.splits = [
      { user_id: owner, percent: 60 },
      { user_id: repId((i + 1) % reps), percent: 40 },
    ];
  }
  return body;
}

/** `n` pending deals (`dealBody`'s) and their splits with plain SQL, 1,000 deals per transaction. */
export async function insertPendingDeals(db, n, reps, batch = 1000) {
  const now = new Date();
  for (let i = 0; i < n; i += batch) {
    const deals = [];
    const splits = [];
    for (let k = i; k < Math.min(n, i + batch); k++) {
      const b = dealBody(k, reps);
      const id = `deal_b${String(k).padStart(8, "0")}`;
      deals.push({
        id,
        external_id: b.external_id,
        opportunity_name: b.opportunity_name,
        arr_amount: String(b.arr_amount),
        currency: "USD",
        deal_type: b.deal_type,
        close_date: b.close_date,
        owner_id: b.owner_id,
        splits_explicit: b.splits !== undefined,
        status: "pending",
        created_at: now,
        updated_at: now,
      });
      for (const [position, s] of (b.splits ?? [{ user_id: b.owner_id, percent: 100 }]).entries()) {
        splits.push({
          deal_id: id,
          user_id: s.user_id,
          position,
          percent: String(s.percent),
          close_date: b.close_date,
        });
      }
    }
    await db.transaction().execute(async (tx) => {
      await tx.insertInto("deals").values(deals).execute();
      for (let j = 0; j < splits.length; j += batch) {
        await tx
          .insertInto("deal_splits")
          .values(splits.slice(j, j + batch))
          .execute();
      }
    });
  }
}

/** Runs every queued `recalculate` job to completion with the service's handler (as the worker would). */
export async function drainRecalcJobs(db) {
  const { recalculateJobHandler } = await load("commissions/recalc/recalculate-job.js");
  let ran = 0;
  for (;;) {
    const jobs = await db
      .selectFrom("jobs")
      .selectAll()
      .where("kind", "=", "recalculate")
      .where("status", "=", "queued")
      .orderBy("id")
      .execute();
    if (jobs.length === 0) return ran;
    for (const job of jobs) {
      const tools = { db, now: () => new Date(), progress: async () => {} };
      await recalculateJobHandler(job, tools);
      await db
        .updateTable("jobs")
        .set({ status: "succeeded", finished_at: new Date() })
        .where("id", "=", job.id)
        .execute();
      ran++;
    }
  }
}

/**
 * Runs `fn`; with BENCH_CPU_PROFILE=<dir> set, profiles just that part (node:inspector) and writes
 * `<dir>/<name>.cpuprofile` (open in Chrome DevTools or speedscope).
 */
export async function profiled(name, fn) {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return fn();
  const { Session } = await import("node:inspector/promises");
  const { mkdirSync, writeFileSync } = await import("node:fs");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  try {
    return await fn();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}
