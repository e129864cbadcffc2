import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql, type Transaction } from "kysely";
import type { DB, Db } from "./schema.js";

const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));
// Any constant works; it only has to be the same in every process of the deployment.
const MIGRATION_LOCK_ID = 7_150_421_001;

export interface MigrationFile {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(dir: string = MIGRATIONS_DIR): MigrationFile[] {
  return readdirSync(dir)
    .filter((f) => /^\d+_[\w-]+\.sql$/.test(f))
    .map((f) => ({ version: Number(f.split("_")[0]), name: f, sql: readFileSync(`${dir}/${f}`, "utf8") }))
    .sort((a, b) => a.version - b.version);
}

export interface MigrateResult<T> {
  applied: string[];
  /** What `inLock` returned: work that must happen once across processes starting together. */
  extra: T | undefined;
}

/**
 * Applies pending migrations in one transaction under an advisory lock, so processes starting at
 * once against one PostgreSQL wait for each other and each migration runs exactly once. `inLock`
 * runs in the same transaction (the one-time bootstrap key is created there).
 */
export async function migrate<T = undefined>(
  db: Db,
  inLock?: (tx: Transaction<DB>) => Promise<T>,
): Promise<MigrateResult<T>> {
  const files = readMigrations();
  return db.transaction().execute(async (tx) => {
    await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`.execute(tx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz(3) NOT NULL)`.execute(tx);
    const done = new Set((await tx.selectFrom("schema_migrations").select("version").execute()).map((r) => r.version));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file.version)) continue;
      await sql.raw(file.sql).execute(tx);
      await tx
        .insertInto("schema_migrations")
        .values({ version: file.version, name: file.name, applied_at: new Date() })
        .execute();
      applied.push(file.name);
    }
    const extra = inLock ? await inLock(tx) : undefined;
    return { applied, extra };
  });
}

/** Migration state for `cts doctor` and /readyz: which files are not yet applied. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const rows = await sql<{ version: number }>`SELECT version FROM schema_migrations`
    .execute(db)
    .then((r) => r.rows)
    .catch(() => [] as { version: number }[]);
  const done = new Set(rows.map((r) => Number(r.version)));
  return readMigrations()
    .filter((f) => !done.has(f.version))
    .map((f) => f.name);
}
