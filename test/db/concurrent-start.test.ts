import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { ensureBootstrapKey } from "../../src/api-keys/index.js";
import { makeCtx, OWNER } from "../../src/context.js";
import { type Database, openDatabase } from "../../src/db/connect.js";
import { migrate, pendingMigrations, readMigrations } from "../../src/db/migrate.js";

const url = process.env.TEST_DATABASE_URL;
const schema = `t_start_${randomBytes(5).toString("hex")}`;
const opened: Database[] = [];

afterAll(async () => {
  for (const d of opened) await d.close();
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

// Real parallel connections need PostgreSQL; PGlite has one connection per process by design.
describe.skipIf(!url)("processes starting at once against one PostgreSQL", () => {
  it("migrate each file once and create exactly one bootstrap key", async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.end();
    const starts = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const database = await openDatabase({ url: url!, schema, poolSize: 2 });
        opened.push(database);
        return migrate(database.db, (tx) => ensureBootstrapKey(tx, makeCtx(tx, "test", OWNER)));
      }),
    );
    const applied = starts.flatMap((s) => s.applied);
    expect(applied.sort()).toEqual(
      readMigrations()
        .map((m) => m.name)
        .sort(),
    );
    expect(starts.filter((s) => s.extra !== null)).toHaveLength(1);
    const keys = await opened[0]!.db.selectFrom("api_keys").select(["name", "scope"]).execute();
    expect(keys).toEqual([{ name: "bootstrap", scope: "admin" }]);
    expect(await pendingMigrations(opened[0]!.db)).toEqual([]);
  });
});
