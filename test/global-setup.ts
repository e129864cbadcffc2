import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/connect.js";
import { migrate } from "../src/db/migrate.js";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

/**
 * PGlite's initdb takes seconds, so it runs once: a migrated data dir is dumped to a file and every
 * test file starts its own in-memory copy of it (PostgreSQL runs get a schema per file instead).
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "cts-test-"));
  const file = join(dir, "template.tar");
  const database = await openDatabase({});
  await migrate(database.db);
  // Checkpointed, each copy starts without replaying the migrations' WAL.
  await sql`CHECKPOINT`.execute(database.db);
  const dump = await database.pglite!.dumpDataDir("none");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide("pgliteTemplate", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
