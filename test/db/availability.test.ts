import { sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { ConnectionGate, DatabaseUnavailable } from "../../src/db/availability.js";
import { describeConnectionError, isConnectionError, isPoolBusy } from "../../src/db/errors.js";
import { bearer, createTestApp } from "../harness.js";

const POSTGRES_URL = process.env.TEST_DATABASE_URL;

/** A real connect: to a port nothing listens on (refused), or to the test database. */
function connector(url: string) {
  let attempts = 0;
  return {
    attempts: () => attempts,
    open: async () => {
      attempts++;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    },
  };
}

describe("#13.23 the connection gate: fail fast while the database is down, retry with backoff", () => {
  it("after a refused connect, callers get 503-able errors without connecting until 250, 500, 1000 … 5000 ms pass", async () => {
    let now = 0;
    const gate = new ConnectionGate(() => now);
    const refused = connector("postgres://postgres@127.0.0.1:1/none");
    const failure = await gate.connect(refused.open).catch((err) => err);
    expect([isConnectionError(failure), describeConnectionError(failure)]).toEqual([true, "connection refused"]);
    for (const expected of [250, 500, 1000, 2000, 4000, 5000, 5000]) {
      const before = refused.attempts();
      const fast = await gate.connect(refused.open).catch((err) => err);
      expect(fast).toBeInstanceOf(DatabaseUnavailable);
      expect([fast.reason, fast.retryAfterSeconds, isConnectionError(fast)]).toEqual([
        "connection refused",
        Math.max(1, Math.ceil(expected / 1000)),
        true,
      ]);
      now += expected - 1;
      await gate.connect(refused.open).catch(() => {});
      expect(refused.attempts()).toBe(before);
      now += 1;
      await gate.connect(refused.open).catch(() => {});
      expect(refused.attempts()).toBe(before + 1);
    }
  });

  it.skipIf(!POSTGRES_URL)(
    "a connect that succeeds closes the gate: the next failure starts again at 250 ms",
    async () => {
      let now = 0;
      const gate = new ConnectionGate(() => now);
      const refused = connector("postgres://postgres@127.0.0.1:1/none");
      await gate.connect(refused.open).catch(() => {});
      now += 250;
      await gate.connect(refused.open).catch(() => {}); // second failure: 500 ms
      now += 500;
      const client = await gate.connect(connector(POSTGRES_URL!).open);
      await client.end();
      await gate.connect(refused.open).catch(() => {});
      const fast = await gate.connect(refused.open).catch((err) => err);
      expect(fast).toBeInstanceOf(DatabaseUnavailable);
      now += 250;
      const before = refused.attempts();
      await gate.connect(refused.open).catch(() => {});
      expect(refused.attempts()).toBe(before + 1);
    },
  );
});

describe("every connection busy: 503 with Retry-After, not a 500, and no outage", () => {
  it.skipIf(!POSTGRES_URL)(
    "a request that waits out the pool's connect timeout gets 503 unavailable; the gate stays closed",
    async () => {
      const t = await createTestApp();
      const key = await t.key("read");
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      // The test pool holds 5 connections: five open transactions take them all.
      const holders = Array.from({ length: 5 }, () =>
        t.db.db.transaction().execute(async (tx) => {
          await sql`SELECT 1`.execute(tx);
          await held;
        }),
      );
      try {
        const busy = await t.app.inject({ method: "GET", url: "/api/v1/deals", headers: bearer(key.key) });
        expect([busy.statusCode, busy.json().error.code, busy.headers["retry-after"]]).toEqual([
          503,
          "unavailable",
          "1",
        ]);
        expect(busy.body).not.toMatch(/timeout exceeded|pg-pool|at /);
      } finally {
        release();
        await Promise.all(holders);
      }
      // Not an outage: the next request connects at once and succeeds.
      const after = await t.app.inject({ method: "GET", url: "/api/v1/deals", headers: bearer(key.key) });
      expect(after.statusCode).toBe(200);
      await t.close();
    },
    30_000,
  );

  it("the pool's timeout message is recognised as busy, and only it", () => {
    expect(isPoolBusy(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isConnectionError(new Error("timeout exceeded when trying to connect"))).toBe(false);
    for (const other of ["Connection terminated unexpectedly", "syntax error at or near", "deadlock detected"])
      expect(isPoolBusy(new Error(other))).toBe(false);
  });
});
