import pg from "pg";
import { describe, expect, it } from "vitest";
import { ConnectionGate, DatabaseUnavailable } from "../../src/db/availability.js";
import { describeConnectionError, isConnectionError } from "../../src/db/errors.js";

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
