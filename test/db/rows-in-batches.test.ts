import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsInBatches } from "../../src/db/sql.js";
import { createTestApp, POSTGRES_URL, type TestApp } from "../harness.js";
import { countStatements } from "../statement-counter.js";

/*
 * Issue #19 (no stall): node-postgres parses a reply as fast as it arrives, all of it in one go, so a
 * bulk's 23,000 bucket entries held the process 50–95 ms. A wide read inside a transaction now runs as a
 * cursor fetched a batch at a time on PostgreSQL. It must return exactly the rows of the plain statement,
 * in order. Embedded, the database's thread sends a long reply in parts itself: one statement.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const tenRows = (from: number) =>
  sql<{
    n: number;
    label: string;
  }>`SELECT n, 'row ' || n AS label FROM generate_series(${from}::int, ${from + 9}::int) AS n ORDER BY n`;

describe("rowsInBatches", () => {
  it("a wide read in a transaction: the plain statement's rows, exactly, fetched a batch at a time on PostgreSQL", async () => {
    const plain = (await tenRows(1).execute(t.db.db)).rows;
    const { result, sent } = await countStatements(t.db.db, (db) =>
      db.transaction().execute((tx) => rowsInBatches(tx, tenRows(1), true, 3)),
    );
    expect(result).toEqual(plain);
    expect(result.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const reads = sent.sql.filter((s) => !/^(begin|commit)/i.test(s.trim()));
    if (POSTGRES_URL) {
      const kinds = ["DECLARE", "FETCH", "FETCH", "FETCH", "FETCH", "CLOSE"];
      expect(reads.map((s) => s.trim().split(/\s+/)[0])).toEqual(kinds);
    } else expect(reads).toHaveLength(1);
  });

  it("two wide reads in one transaction each get their own cursor", async () => {
    const [a, b] = await t.db.db
      .transaction()
      .execute(async (tx) => [
        await rowsInBatches(tx, tenRows(1), true, 4),
        await rowsInBatches(tx, tenRows(11), true, 4),
      ]);
    expect(a!.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(b!.map((r) => r.n)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  });

  it("a narrow read, or one outside a transaction, is one statement", async () => {
    const narrow = await countStatements(t.db.db, (db) =>
      db.transaction().execute((tx) => rowsInBatches(tx, tenRows(1), false, 3)),
    );
    expect(narrow.result).toHaveLength(10);
    expect(narrow.sent.sql.filter((s) => !/^(begin|commit)/i.test(s.trim()))).toHaveLength(1);
    const outside = await countStatements(t.db.db, (db) => rowsInBatches(db, tenRows(1), true, 3));
    expect(outside.result).toHaveLength(10);
    expect(outside.sent.sql).toHaveLength(1);
  });
});
