// Compiles src/ to dist/, copies the SQL migrations beside the compiled migrator, bundles the `cts`
// command into dist/cli/main.js (scripts/bundle-cli.mjs: it starts ~0.7 s sooner), bakes an empty
// PGlite cluster (initdb takes seconds) so the first `npm start` on a new data dir starts from it, and
// builds the web console into dist/web with a .br and a .gz beside each asset (served as they are).
// `--server` recompiles src/, the migrations and the bundle only, over the existing dist/ (the tests' quick path).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { bundleCli } from "./bundle-cli.mjs";

const serverOnly = process.argv.includes("--server");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
if (!serverOnly) rmSync("dist", { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });
cpSync("src/db/migrations", "dist/db/migrations", { recursive: true });
cpSync("src/db/pglite-worker.mjs", "dist/db/pglite-worker.mjs"); // plain JavaScript: the embedded database's thread
await bundleCli();
if (serverOnly && existsSync("dist/db/pgdata-template.tar.gz")) process.exit(0);

const { PGlite } = await import("@electric-sql/pglite");
const pglite = await PGlite.create();
const dump = await pglite.dumpDataDir("gzip");
writeFileSync("dist/db/pgdata-template.tar.gz", Buffer.from(await dump.arrayBuffer()));
await pglite.close();
if (serverOnly) process.exit(0);

const { build } = await import("vite");
await build({ configFile: "web/vite.config.ts", logLevel: "warn" });
for (const dir of ["dist/web", "dist/web/assets"]) {
  for (const name of readdirSync(dir)) {
    if (!/\.(js|css|html|svg)$/.test(name)) continue;
    const body = readFileSync(join(dir, name));
    writeFileSync(
      join(dir, `${name}.br`),
      brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    writeFileSync(join(dir, `${name}.gz`), gzipSync(body, { level: 9 }));
  }
}
