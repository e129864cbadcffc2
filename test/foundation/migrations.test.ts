import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, pendingMigrations, readMigrations } from "../../src/db/migrate.js";
import { createUser } from "../factories.js";
import { createTestApp, type TestApp } from "../harness.js";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

/** Tables, columns, indexes and constraints of this test's schema, as comparable text. */
async function schemaSnapshot(): Promise<string[]> {
  const db = t.db.db;
  const columns = await sql<{ line: string }>`
    SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS line
    FROM information_schema.columns WHERE table_schema = current_schema()`.execute(db);
  const indexes = await sql<{ line: string }>`
    SELECT indexdef AS line FROM pg_indexes WHERE schemaname = current_schema()`.execute(db);
  const constraints = await sql<{ line: string }>`
    SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS line
    FROM pg_constraint WHERE connamespace = current_schema()::regnamespace`.execute(db);
  return [...columns.rows, ...indexes.rows, ...constraints.rows].map((r) => r.line).sort();
}

async function migrationRows() {
  return t.db.db.selectFrom("schema_migrations").selectAll().orderBy("version").execute();
}

describe("migrations", () => {
  it("every migration file is applied and none is pending", async () => {
    const files = readMigrations();
    expect(files.length).toBeGreaterThan(0);
    expect(files.map((f) => f.version)).toEqual([...new Set(files.map((f) => f.version))].sort((a, b) => a - b));
    expect((await migrationRows()).map((r) => r.name)).toEqual(files.map((f) => f.name));
    expect(await pendingMigrations(t.db.db)).toEqual([]);
  });

  it("running migrate() again applies nothing and changes nothing", async () => {
    const user = await createUser(t);
    const schemaBefore = await schemaSnapshot();
    const rowsBefore = await migrationRows();
    expect(schemaBefore.length).toBeGreaterThan(20);

    const result = await migrate(t.db.db);
    expect(result).toEqual({ applied: [], extra: undefined });
    const again = await migrate(t.db.db, async () => "ran in the lock");
    expect(again).toEqual({ applied: [], extra: "ran in the lock" });

    expect(await schemaSnapshot()).toEqual(schemaBefore);
    expect(await migrationRows()).toEqual(rowsBefore);
    expect(await pendingMigrations(t.db.db)).toEqual([]);
    const still = await t.db.db.selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirst();
    expect(still?.email).toBe(user.email);
  });
});
