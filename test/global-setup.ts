import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../src/db/connect.js";
import { migrate } from "../src/db/migrate.js";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    dataDirTemplate: string;
  }
}

/**
 * PGlite's initdb takes seconds, so it runs once: a migrated data dir is dumped to a file and every
 * test file starts its own in-memory copy of it (PostgreSQL runs get a schema per file instead).
 * The same cluster is also written out once as a `CTS_DATA_DIR` (its pgdata/), for the tests that run
 * `cts serve` in a child process: a copy of it (test/cli/spawn.ts, `fromTemplate`) is what a first
 * start leaves before its bootstrap key, and the child skips the migrations (about 2 of a fresh start's
 * 3.5 s). The fresh path itself keeps its tests (test/cli/embedded-server, test/db/data-dir-modes).
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));

function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Tests that run `cts` in a child process run the compiled dist/ (a tsx child spent ~5 s compiling src/
 * at every start). `npm install` built it; after an edit of src/ it is recompiled here, once per run.
 */
function compileIfStale(): void {
  const built = statSync(join(ROOT, "dist/cli/main.js"), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (newestChange(join(ROOT, "src")) > built) {
    execFileSync(process.execPath, ["scripts/build.mjs", "--server"], { cwd: ROOT, stdio: "inherit" });
  }
}

export default async function setup(project: TestProject) {
  compileIfStale();
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
  const dataDir = join(dir, "data");
  mkdirSync(dataDir, { mode: 0o700 });
  const onDisk = await openDatabase({ dataDir: join(dataDir, "pgdata"), loadDataDir: dump });
  await onDisk.close();
  project.provide("dataDirTemplate", dataDir);
  return () => rmSync(dir, { recursive: true, force: true });
}
