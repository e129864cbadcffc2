// Webhook delivery benchmark against the built code (run `npm run build` first):
//   node bench/webhooks.mjs            embedded database in a temp dir
//   BENCH_DATABASE_URL=postgres://… node bench/webhooks.mjs   PostgreSQL (a schema of its own, dropped after)
// Prints deliveries/s (target ≥ 500/s) and event commit → delivery p50 (target < 100 ms), each beside a
// same-run baseline of raw undici POSTs to the same local receiver, then one markdown table row.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pino from "pino";
import { Agent, request } from "undici";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 200);
const CONCURRENCY = 8; // the worker's default, as `cts serve` runs it
const DATABASE_URL = process.env.BENCH_DATABASE_URL;

const dist = new URL("../dist/", import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const { openDatabase } = await load("db/connect.js");
const { migrate } = await load("db/migrate.js");
const { makeCtx, OWNER } = await load("context.js");
const { emit } = await load("events/emit.js");
const { Worker } = await load("jobs/worker.js");
const { deliverySource } = await load("webhooks/delivery-source.js");
const { listenForDeliveries } = await load("webhooks/notify.js");
const { createSafeAgent } = await load("webhooks/safe-fetch.js");
const { createSubscription } = await load("webhooks/create-subscription.js");

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const round = (n, digits = 1) => Number(n.toFixed(digits));

/** A receiver that answers 200 at once and tells who waits for a given webhook-id. */
async function startReceiver() {
  const waiting = new Map();
  let count = 0;
  let onCount = () => {};
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.end("ok");
      count += 1;
      onCount(count);
      const id = req.headers["webhook-id"];
      waiting.get(id)?.(performance.now());
      waiting.delete(id);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    arrival: (id) => new Promise((resolve) => waiting.set(id, resolve)),
    reached: (n) => new Promise((resolve) => (onCount = (c) => c >= n && resolve())),
    reset: () => (count = 0),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function openBenchDatabase() {
  if (!DATABASE_URL) {
    const dir = mkdtempSync(join(tmpdir(), "cts-bench-"));
    const database = await openDatabase({ dataDir: join(dir, "pgdata") });
    return { database, kind: "embedded", cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `bench_${randomBytes(4).toString("hex")}`;
  const admin = await openDatabase({ url: DATABASE_URL, poolSize: 1 });
  await admin.db.schema.createSchema(schema).execute();
  const database = await openDatabase({ url: DATABASE_URL, schema, poolSize: 10 });
  const cleanup = async () => {
    await admin.db.schema.dropSchema(schema).cascade().execute();
    await admin.close();
  };
  return { database, kind: "postgresql", cleanup };
}

async function emitEvents(db, n, perTransaction = 100) {
  const body = { object: { id: "deal_bench", opportunity_name: "Bench", arr_amount: 30000, status: "approved" } };
  for (let done = 0; done < n; done += perTransaction) {
    await db.transaction().execute(async (tx) => {
      const ctx = makeCtx(tx, "bench", OWNER);
      for (let i = done; i < Math.min(n, done + perTransaction); i++) await emit(tx, ctx, "deal.approved", body);
    });
  }
}

/** Raw undici POSTs of the same size to the same receiver: the ceiling the delivery path is compared with. */
async function baseline(url, n) {
  const agent = new Agent();
  const body = JSON.stringify({ id: "evt_x", type: "deal.approved", created_at: new Date().toISOString(), data: {} });
  const post = async () => {
    const res = await request(url, {
      dispatcher: agent,
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });
    await res.body.text();
  };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < n) await post();
    }),
  );
  const perSecond = n / ((performance.now() - started) / 1000);
  const latencies = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const t0 = performance.now();
    await post();
    latencies.push(performance.now() - t0);
  }
  await agent.close();
  return { perSecond, p50: percentile(latencies, 50) };
}

const receiver = await startReceiver();
const url = `http://127.0.0.1:${receiver.port}/hooks`;
const { database, kind, cleanup } = await openBenchDatabase();
const db = database.db;
await migrate(db);
const settings = { secretKey: randomBytes(32), allowHosts: [`127.0.0.1:${receiver.port}`], allowHttp: true };
await createSubscription(makeCtx(db, "bench", OWNER), settings, { url, events: ["*"] });

const logger = pino({ level: "silent" });
const agent = createSafeAgent(settings);
const source = deliverySource({ db, agent, secretKey: settings.secretKey, logger });
const worker = new Worker({ sources: [source], logger, concurrency: CONCURRENCY });

// Throughput: N committed events waiting, then the worker starts and drains them.
await emitEvents(db, EVENTS);
const allArrived = receiver.reached(EVENTS);
const started = performance.now();
worker.start();
const unlisten = await listenForDeliveries(database, DATABASE_URL, () => worker.wake(), logger);
await allArrived;
const deliveriesPerSecond = EVENTS / ((performance.now() - started) / 1000);

// Latency: one event per transaction, measured from the commit returning to the receiver's arrival.
const latencies = [];
for (let i = 0; i < LATENCY_SAMPLES; i++) {
  let arrival;
  await db.transaction().execute(async (tx) => {
    const id = await emit(tx, makeCtx(tx, "bench", OWNER), "deal.approved", { object: { id: `deal_${i}` } });
    arrival = receiver.arrival(id);
  });
  const t0 = performance.now();
  latencies.push((await arrival) - t0);
}
await worker.stop(5000);
await unlisten();

const raw = await baseline(url, EVENTS);
await agent.close();
await database.close();
await cleanup();
await receiver.close();

const p50 = percentile(latencies, 50);
const p95 = percentile(latencies, 95);
const figures = {
  database: kind,
  events: EVENTS,
  deliveries_per_s: round(deliveriesPerSecond, 0),
  raw_posts_per_s: round(raw.perSecond, 0),
  throughput_ratio: round(deliveriesPerSecond / raw.perSecond, 2),
  commit_to_delivery_p50_ms: round(p50),
  commit_to_delivery_p95_ms: round(p95),
  raw_post_p50_ms: round(raw.p50),
};
console.log(JSON.stringify(figures));
console.log(
  "\n| date | node | database | events | deliveries/s (≥ 500) | raw POST/s | ratio | commit→delivery p50 ms (< 100) | p95 ms | raw POST p50 ms |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
console.log(
  `| ${new Date().toISOString().slice(0, 10)} | ${process.version} | ${kind} | ${EVENTS} | ${figures.deliveries_per_s} | ${figures.raw_posts_per_s} | ${figures.throughput_ratio} | ${figures.commit_to_delivery_p50_ms} | ${figures.commit_to_delivery_p95_ms} | ${figures.raw_post_p50_ms} |`,
);
const met = (ok) => (ok ? "met" : "MISSED");
console.log(`\ntargets: ≥ 500 deliveries/s ${met(deliveriesPerSecond >= 500)}; p50 < 100 ms ${met(p50 < 100)}`);
