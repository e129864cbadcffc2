// The server side of the HTTP benchmarks, started (and pinned) by bench/lib/http.mjs:
//   node bench/lib/http-server.mjs auth|deals
// Opens a database of its own (bench/lib/setup.mjs), builds the whole app as `cts serve` does (JSON
// request log on stdout, the deployment's rate-limit store, buffered request-log rows) with a raised
// per-key limit, and a bare Fastify app beside it on the same database; reports both ports and a read
// key over IPC, and on "stop" closes everything and drops the database.
import { hash } from "node:crypto";
import { readFileSync } from "node:fs";
import Fastify from "fastify";
import { sql } from "kysely";
import pino from "pino";
import { z } from "zod";
import { DATABASE_URL, load, openBenchDatabase, ownerCtx } from "./setup.mjs";

const mode = process.argv[2];
const { buildApp } = await load("app/build.js");
const { createKey } = await load("api-keys/create.js");
const { createRateLimitStore } = await load("rate-limit/select.js");

const { database, kind, cleanup } = await openBenchDatabase();
const db = database.db;
let seeded = {};
if (mode === "deals") {
  const { seedDeals } = await import("./seed-deals.mjs");
  seeded = await seedDeals(db, Number(process.env.BENCH_DEALS ?? 100_000));
}
const { key } = await createKey(ownerCtx(db), { name: "bench", scope: "read" });

// As `cts serve` logs (main.ts createLogger); stdout is /dev/null here.
const logger = pino({ level: "info", base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime });
const rateLimits = createRateLimitStore({ redisUrl: undefined, databaseUrl: DATABASE_URL }, db, logger);
const Ok = z.object({ ok: z.literal(true) });
const { app } = await buildApp({
  db,
  pglite: database.pglite,
  env: "bench",
  logger,
  rateLimits,
  // Raised by shrinking the window: 1,000 per 10 ms never refuses at these rates, and the sliding log
  // then holds about as many entries as a busy key's does at the real 100 per minute.
  perKeyLimit: { limit: 1000, windowMs: 10 },
  extraRoutes: (api) =>
    api.get("/bench/ping", { config: { scope: "read" }, schema: { response: { 200: Ok } } }, async () => ({
      ok: true,
    })),
});

const bare = Fastify();
bare.get("/ping", async () => ({ ok: true }));
// The contract's floor, whatever the implementation: each request's JSON log line (as `cts serve`
// writes it, to the same /dev/null) and the SHA-256 a presented key is looked up by.
bare.get("/ping-floor", async (req) => {
  const keyHash = hash("sha256", String(req.headers.authorization), "hex");
  logger.info(
    { request_id: req.id, key_hash: keyHash.slice(0, 12), method: req.method, path: req.url, status: 200 },
    "request",
  );
  return { ok: true };
});
// The same page query and count(*) as the repository's, through the same Kysely over the same driver.
bare.get("/deals", async (req) => {
  const page = Number(req.query.page ?? 1);
  const perPage = Number(req.query.per_page ?? 25);
  const query = db.selectFrom("deals").where("status", "in", [req.query.status]);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    query.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { data: rows, meta: { page, per_page: perPage, total: Number(count.n) } };
});

await app.listen({ host: "127.0.0.1", port: 0 });
// The service closes a keep-alive connection after 1,000 requests (`maxRequestsPerSocket`), which
// autocannon does not honour: it keeps sending on the socket and gets Node's 503s. The limit costs
// nothing per request, so the benchmark lifts it rather than measure refusals.
app.server.maxRequestsPerSocket = 0;
await bare.listen({ host: "127.0.0.1", port: 0 });
process.send({ kind, key, stack: app.server.address().port, bare: bare.server.address().port, ...seeded });

/** user + system CPU seconds of a process from /proc (Linux; 0 elsewhere or once it is gone). */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(stat[11]) + Number(stat[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of each of the server's PostgreSQL backends, by pid (embedded: PGlite's thread is the server's). */
async function databaseCpu() {
  if (kind !== "postgresql") return {};
  const appName = process.env.PGAPPNAME ?? "";
  const { rows } = await sql`SELECT pid FROM pg_stat_activity WHERE application_name = ${appName}`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.pid, cpuSeconds(r.pid)]));
}

process.on("message", async (message) => {
  if (typeof message?.cpu === "number") {
    const usage = process.cpuUsage();
    const database = await databaseCpu();
    process.send({ cpu: message.cpu, server: (usage.user + usage.system) / 1e6, database });
    return;
  }
  if (message !== "stop") return;
  await app.close();
  await bare.close();
  await rateLimits.close?.();
  await database.close();
  await cleanup();
  process.exit(0);
});
