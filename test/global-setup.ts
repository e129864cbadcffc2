import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
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
  }
}

/**
 * PGlite's initdb takes seconds, so it runs once: a migrated data dir is dumped to a file and every
 * test file starts its own in-memory copy of it (PostgreSQL runs get a schema per file instead).
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
  return () => rmSync(dir, { recursive: true, force: true });
}
