import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDb, type TestDb } from "../harness.js";

/*
 * Issue #19 (no stall): a transaction that awaits statement after statement must let the event loop turn,
 * so the process keeps reading other requests meanwhile. PGlite runs each statement synchronously and
 * resolves at once; without a turn now and then, such a chain is one run of microtasks that starves every
 * timer and socket until it ends. (PostgreSQL's statements are socket I/O, which turns the loop anyway.)
 */
let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
  await sql`CREATE TABLE turns (id integer PRIMARY KEY, note text NOT NULL)`.execute(t.db);
});
afterAll(async () => t.dispose());

describe("a long chain of statements lets the event loop turn", () => {
  it("an immediate scheduled after its first statement runs before its last", async () => {
    const statements = 2000;
    let doneBeforeTurn = -1;
    let completed = 0;
    await t.db.transaction().execute(async (tx) => {
      await sql`INSERT INTO turns VALUES (0, 'first')`.execute(tx);
      setImmediate(() => {
        doneBeforeTurn = completed;
      });
      for (let i = 1; i < statements; i++) {
        await sql`INSERT INTO turns VALUES (${i}, ${`note ${i}`})`.execute(tx);
        completed = i;
      }
    });
    expect(doneBeforeTurn).toBeGreaterThanOrEqual(0);
    expect(doneBeforeTurn).toBeLessThan(statements - 1);
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM turns`.execute(t.db);
    expect(rows[0]!.n).toBe(String(statements));
  });
});
