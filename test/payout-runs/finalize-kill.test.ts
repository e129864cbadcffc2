import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/api-keys/index.js";
import { makeCtx, OWNER } from "../../src/context.js";
import { type Database, openDatabase } from "../../src/db/connect.js";
import { migrate } from "../../src/db/migrate.js";
import { ctsEnv, fromTemplate, type RunningServer, startServer } from "../cli/spawn.js";

/**
 * API.md §13: finalize is one transaction. A `cts serve` killed with SIGKILL while it finalizes a run
 * leaves the run draft (every line still approved and in the run, no deal paid) or finalized (every line
 * paid, every deal paid), never between. Each round kills the process at another moment after the
 * finalize request left, then reads the database the process left behind. Both databases: the
 * embedded one (a data dir) and, with TEST_DATABASE_URL, a PostgreSQL database of the test's own.
 */
const PG_URL = process.env.TEST_DATABASE_URL;
const dbName = `cts_kill_${randomBytes(4).toString("hex")}`;
const dataDir = mkdtempSync(join(tmpdir(), "cts-payout-kill-"));
// Round 0 finalizes without a kill and times it (T); the others are killed at these fractions of T after
// the request left: before the transaction, inside it, near its end.
const ROUNDS = [0, 0.1, 0.4, 0.7, 0.95];
let finalizeMs = 0;
const USERS_PER_ROUND = 40;
const DEALS_PER_USER = 150;
const running: RunningServer[] = [];
let env: NodeJS.ProcessEnv;
let key = "";

function pgUrl(name: string): string {
  const url = new URL(PG_URL!);
  url.pathname = `/${name}`;
  return url.href;
}

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const open = (): Promise<Database> =>
  PG_URL ? openDatabase({ url: pgUrl(dbName), poolSize: 1 }) : openDatabase({ dataDir: join(dataDir, "pgdata") });

const user = (round: number, i: number) => `usr_kill${round}x${String(i).padStart(3, "0")}`;

// An adjustment's explanation (the API's schema for the kind): the lines are written here, not computed.
const EXPLANATION = JSON.stringify({
  summary: "Seeded for the test",
  reason: "seeded",
  author: { key_id: null, name: "test" },
  period: "2026-Q1",
  amount: 100.25,
});

/** Each round's people, and for each an approved deal with an approved adjustment line, written with plain SQL. */
async function seed(db: Database["db"]): Promise<void> {
  for (let round = 0; round < ROUNDS.length; round++) {
    await sql`
      INSERT INTO users (id, name, email, role, active, created_at, updated_at)
      SELECT 'usr_kill' || ${round} || 'x' || lpad(i::text, 3, '0'), 'Rep ' || i, 'kill' || ${round} || '.' || i || '@example.com',
        'rep', true, now(), now()
      FROM generate_series(0, ${USERS_PER_ROUND - 1}) AS i`.execute(db);
    await sql`
      INSERT INTO deals (id, opportunity_name, arr_amount, currency, deal_type, close_date, owner_id, status,
        total_commission, approved_at, created_at, updated_at)
      SELECT 'deal_kill' || ${round} || 'x' || i, 'Deal ' || i, 1000, 'USD', 'new_business', date '2026-01-05',
        'usr_kill' || ${round} || 'x' || lpad((i % ${USERS_PER_ROUND})::text, 3, '0'), 'approved', 100.25,
        timestamptz '2026-01-06T12:00:00Z', now(), now()
      FROM generate_series(0, ${USERS_PER_ROUND * DEALS_PER_USER - 1}) AS i`.execute(db);
    await sql`
      INSERT INTO commission_lines (id, deal_id, user_id, kind, period, amount, status, locked, explanation,
        calculated_at, created_at)
      SELECT 'com_kill' || substr(d.id, 10), d.id, d.owner_id, 'adjustment', '2026-Q1', 100.25, 'approved', true,
        ${EXPLANATION}, now(), now()
      FROM deals d WHERE d.id LIKE ${`deal_kill${round}x%`}`.execute(db);
  }
}

async function call(server: RunningServer, method: string, path: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  if (PG_URL) await admin(`CREATE DATABASE ${dbName}`);
  else fromTemplate(dataDir);
  env = PG_URL
    ? ctsEnv({ DATABASE_URL: pgUrl(dbName), CTS_SECRET_KEY: randomBytes(32).toString("base64"), CTS_ENV: "demo" })
    : ctsEnv({ CTS_DATA_DIR: dataDir, CTS_ENV: "demo" });
  // Set up in this process rather than by a first start (a server start saved): the schema (the embedded
  // template is migrated already), the admin key the rounds use, then the rows.
  const database = await open();
  try {
    await migrate(database.db);
    key = (await createKey(makeCtx(database.db, "demo", OWNER), { name: "finalize-kill", scope: "admin" })).key;
    await seed(database.db);
  } finally {
    await database.close();
  }
}, 180_000);

afterAll(async () => {
  for (const s of running) s.child.kill("SIGKILL");
  await Promise.all(running.map((s) => s.exited));
  if (PG_URL) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  rmSync(dataDir, { recursive: true, force: true });
});

describe("§13 a SIGKILL during finalize leaves the run draft or finalized, never half", () => {
  it.each(ROUNDS.map((fraction, round) => [round, fraction]))(
    "round %i: killed at %f of an unkilled finalize's time",
    async (round, fraction) => {
      const server = await startServer(env);
      running.push(server);
      const users = Array.from({ length: USERS_PER_ROUND }, (_, i) => user(round, i));
      const created = await call(server, "POST", "/payout-runs", {
        through: today(),
        pay_date: today(),
        user_ids: users,
      });
      if (created.status !== 201) {
        server.child.kill("SIGKILL");
        await server.exited;
        console.error(server.stdout().slice(-3000), server.stderr().slice(-2000));
      }
      expect(created).toMatchObject({ status: 201 });
      const runId: string = created.body.id;
      expect(created.body.totals).toEqual([
        expect.objectContaining({ currency: "USD", payees: USERS_PER_ROUND, lines: USERS_PER_ROUND * DEALS_PER_USER }),
      ]);

      const started = performance.now();
      const finalize = fetch(`http://127.0.0.1:${server.port}/api/v1/payout-runs/${runId}/finalize`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
      }).catch(() => undefined);
      const delay = Math.round(finalizeMs * fraction);
      if (round === 0) {
        expect((await finalize)?.status).toBe(200);
        finalizeMs = performance.now() - started;
      } else {
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
      server.child.kill("SIGKILL");
      await server.exited;
      await finalize;

      const database = await open();
      try {
        const db = database.db;
        const run = await db
          .selectFrom("payout_runs")
          .select("status")
          .where("id", "=", runId)
          .executeTakeFirstOrThrow();
        const lines = await db
          .selectFrom("commission_lines")
          .select(["status", "payout_run_id", (eb) => eb.fn.countAll<string>().as("n")])
          .where("user_id", "in", users)
          .groupBy(["status", "payout_run_id"])
          .execute();
        const deals = await db
          .selectFrom("deals")
          .select(["status", (eb) => eb.fn.countAll<string>().as("n")])
          .where("owner_id", "in", users)
          .groupBy("status")
          .execute();
        const all = String(USERS_PER_ROUND * DEALS_PER_USER);
        expect(["draft", "finalized"]).toContain(run.status);
        console.info(
          `round ${round}: finalize takes ${Math.round(finalizeMs)} ms, killed after ${delay} ms → ${run.status}`,
        );
        if (round === 0) expect(run.status).toBe("finalized");
        const paid = run.status === "finalized";
        expect(lines.map((l) => ({ ...l, n: String(l.n) }))).toEqual([
          { status: paid ? "paid" : "approved", payout_run_id: runId, n: all },
        ]);
        expect(deals.map((d) => ({ ...d, n: String(d.n) }))).toEqual([{ status: paid ? "paid" : "approved", n: all }]);
        const finalized = await db
          .selectFrom("payout_runs")
          .select(["finalized_at", "finalized_by"])
          .where("id", "=", runId)
          .executeTakeFirstOrThrow();
        expect(finalized.finalized_at !== null).toBe(paid);
      } finally {
        await database.close();
      }
    },
    180_000,
  );
});
