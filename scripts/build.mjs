// Compiles src/ to dist/, copies the SQL migrations beside the compiled migrator, and bakes an empty
// PGlite cluster (initdb takes seconds) so the first `npm start` on a new data dir starts from it.
import { execFileSync } from "node:child_process";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
rmSync("dist", { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });
cpSync("src/db/migrations", "dist/db/migrations", { recursive: true });

const { PGlite } = await import("@electric-sql/pglite");
const pglite = await PGlite.create();
const dump = await pglite.dumpDataDir("gzip");
writeFileSync("dist/db/pgdata-template.tar.gz", Buffer.from(await dump.arrayBuffer()));
await pglite.close();
