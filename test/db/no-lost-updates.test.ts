import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDb, type TestDb } from "../harness.js";

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
  await sql`CREATE TABLE counters (id text PRIMARY KEY, n integer NOT NULL)`.execute(t.db);
  await sql`INSERT INTO counters VALUES ('c', 0)`.execute(t.db);
});
afterAll(async () => t.dispose());

describe("transactions through the Kysely layer", () => {
  it("50 concurrent read-modify-write transactions on one row lose no update", async () => {
    await Promise.all(
      Array.from({ length: 50 }, () =>
        t.db.transaction().execute(async (tx) => {
          const row = await sql<{ n: number }>`SELECT n FROM counters WHERE id = 'c' FOR UPDATE`.execute(tx);
          await sql`UPDATE counters SET n = ${row.rows[0]!.n + 1} WHERE id = 'c'`.execute(tx);
        }),
      ),
    );
    const final = await sql<{ n: number }>`SELECT n FROM counters WHERE id = 'c'`.execute(t.db);
    expect(final.rows[0]!.n).toBe(50);
  });

  it("a failed transaction leaves nothing behind", async () => {
    await expect(
      t.db.transaction().execute(async (tx) => {
        await sql`UPDATE counters SET n = n + 1000 WHERE id = 'c'`.execute(tx);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const final = await sql<{ n: number }>`SELECT n FROM counters WHERE id = 'c'`.execute(t.db);
    expect(final.rows[0]!.n).toBe(50);
  });

  it("bigint, numeric and date come back as exact strings from both drivers", async () => {
    const r = await sql<{ b: string; m: string; d: string; c: string }>`
      SELECT 9007199254740993::int8 AS b, 12345678901234.56::numeric AS m, DATE '2026-07-01' AS d, count(*) AS c FROM counters`.execute(
      t.db,
    );
    expect(r.rows[0]).toEqual({ b: "9007199254740993", m: "12345678901234.56", d: "2026-07-01", c: "1" });
  });
});
