import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { registerDatabaseGauges } from "../../src/app/metrics-server.js";
import { registry } from "../../src/metrics.js";
import { openTestDb, POSTGRES_URL, type TestDb } from "../harness.js";

/** openTestDb's pool: PGlite has one connection; the PostgreSQL test pool has five. */
const CONNECTIONS = POSTGRES_URL ? 5 : 1;

let t: TestDb;
let removeGauges = () => {};
beforeAll(async () => {
  t = await openTestDb();
  removeGauges = registerDatabaseGauges(t);
});
afterAll(async () => {
  removeGauges();
  await t.dispose();
});

function gaugeIn(text: string, name: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`${name} is not in the scrape`);
  return Number(line.slice(name.length + 1));
}

/** Opens a transaction and keeps its connection until `release` is called. */
function holdConnection() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const done = t.db.transaction().execute(async (trx) => {
    await sql`SELECT 1`.execute(trx);
    entered();
    await released;
  });
  return { inside, release, done };
}

// The scrape's own queries (cts_jobs, cts_outbox_depth) were counted as waiting: 2 on an idle server.
describe("cts_db_pool_waiting counts the checkouts waiting for a connection, not the scrape's own queries", () => {
  it("an idle pool reads 0 on every scrape", async () => {
    for (let scrape = 0; scrape < 3; scrape++) {
      const text = await registry.metrics();
      expect(gaugeIn(text, "cts_db_pool_waiting")).toBe(0);
      expect(gaugeIn(text, "cts_outbox_depth")).toBe(0);
    }
    expect(t.waitingCount()).toBe(0);
  });

  it("with every connection held, it reads the three queries queued behind them", async () => {
    const holders = Array.from({ length: CONNECTIONS }, holdConnection);
    await Promise.all(holders.map((h) => h.inside));
    const queued = [1, 2, 3].map((n) => sql<{ n: number }>`SELECT ${n}::int AS n`.execute(t.db));
    await vi.waitFor(() => expect(t.waitingCount()).toBe(3));
    const scrape = registry.metrics();
    for (const h of holders) h.release();
    await Promise.all(holders.map((h) => h.done));
    expect((await Promise.all(queued)).map((r) => r.rows[0]!.n)).toEqual([1, 2, 3]);
    expect(gaugeIn(await scrape, "cts_db_pool_waiting")).toBe(3);
    expect(gaugeIn(await registry.metrics(), "cts_db_pool_waiting")).toBe(0);
  });
});
