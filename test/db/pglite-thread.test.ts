import { readFileSync } from "node:fs";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/connect.js";
import { isUniqueViolation } from "../../src/db/errors.js";
import { POSTGRES_URL } from "../harness.js";

/*
 * Issue #19 (no stall): the embedded database runs on its own thread (db/pglite-thread.ts), so that a
 * statement no longer stops the server from answering. What crosses between the threads must be what
 * PGlite itself gave: every row in order (a long reply comes in parts), its types, errors with their
 * fields, and a NOTIFY delivered before the statement that sent it resolves (the key cache relies on it).
 * Embedded only: this is the embedded database's transport (and opening one marks the process as
 * embedded, db/embedded.ts, which would change the PostgreSQL run's later files).
 */
let database: Database;
beforeAll(async () => {
  if (!POSTGRES_URL) database = await openDatabase({ loadDataDir: new Blob([readFileSync(inject("pgliteTemplate"))]) });
});
afterAll(async () => database?.close());

describe.skipIf(POSTGRES_URL)("the embedded database on its own thread", () => {
  it("a reply of 4,500 rows (sent in parts of 2,000) arrives whole and in order, with its types", async () => {
    const { rows } = await sql<{ n: number; at: Date; amount: string; big: string; day: string }>`
      SELECT n, timestamptz '2026-11-26 10:00:00+00' + n * interval '1 second' AS at,
             (n * 1.25)::numeric(12, 2) AS amount, (n::bigint * 1000000000) AS big, date '2026-01-01' + n AS day
      FROM generate_series(1, ${4500}::int) AS n ORDER BY n`.execute(database.db);
    expect(rows).toHaveLength(4500);
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 4500 }, (_, i) => i + 1));
    const last = rows[4499]!;
    expect(last.at).toBeInstanceOf(Date);
    expect(last.at.toISOString()).toBe("2026-11-26T11:15:00.000Z");
    expect(last.amount).toBe("5625.00");
    expect(last.big).toBe("4500000000000");
    expect(last.day).toBe("2038-04-28");
  });

  it("a long reply without parameters (the simple protocol) arrives whole too", async () => {
    const { rows } = await sql<{ n: number }>`SELECT n FROM generate_series(1, 4500) AS n ORDER BY n`.execute(
      database.db,
    );
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 4500 }, (_, i) => i + 1));
  });

  it("an error keeps its SQLSTATE, constraint and message", async () => {
    await sql`CREATE TEMP TABLE t_unique (id text CONSTRAINT t_unique_pkey PRIMARY KEY)`.execute(database.db);
    await sql`INSERT INTO t_unique VALUES ('a')`.execute(database.db);
    const err = await sql`INSERT INTO t_unique VALUES ('a')`.execute(database.db).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as { code?: string }).code).toBe("23505");
    expect((err as { constraint?: string }).constraint).toBe("t_unique_pkey");
    expect(isUniqueViolation(err, "t_unique_pkey")).toBe(true);
    expect((err as Error).message).toMatch(/duplicate key value violates unique constraint "t_unique_pkey"/);
  });

  it("a NOTIFY reaches its listener before the statement that sent it resolves", async () => {
    const seen: string[] = [];
    const unlisten = await database.pglite!.listen("cts_test_channel", (payload) => seen.push(payload));
    await sql`SELECT pg_notify('cts_test_channel', 'first')`.execute(database.db);
    expect(seen).toEqual(["first"]);
    await unlisten();
    await sql`SELECT pg_notify('cts_test_channel', 'after unlisten')`.execute(database.db);
    expect(seen).toEqual(["first"]);
  });
});
