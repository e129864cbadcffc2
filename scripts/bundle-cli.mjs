// The `cts` command as one esbuild bundle. Unbundled, every start had Node resolve, read and link ~1,000
// module files (kysely alone 262, zod 95, fastify with its plugins ~400): ~0.7 s of a 2.9 s cold start.
// dist/cli/main.js becomes the bundle (~5 MB); the rest of dist/ stays tsc's output, which tests and benches
// import by path. One file, no code splitting: esbuild keeps the modules' evaluation order only then, and
// that order is the order of the OpenAPI document's components (zod registers them as modules evaluate).
// Lazily imported modules stay lazy: their code is in the file but runs on first import.
import { rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { build } from "esbuild";

const DIST = resolve("dist");
const OUT = join(DIST, "cli");

// Left to node_modules: PGlite and argon2 load files beside themselves (WASM, a native addon); Scalar's
// 4 MB page and pg are loaded only on demand (/docs, PostgreSQL) and gain nothing from a bundle.
const EXTERNAL = ["@electric-sql/pglite", "@node-rs/argon2", "@scalar/fastify-api-reference", "pg"];

/**
 * Our modules find files beside themselves (the migrations, the PGlite template, the console, package.json)
 * and resolve packages from where they are, through import.meta.url: each keeps its own (its tsc output's
 * place, relative to the bundle).
 */
const ownImportMetaUrl = {
  name: "own-import-meta-url",
  setup(bundle) {
    bundle.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(`${DIST}/`)) return undefined;
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      const own = `new URL(${JSON.stringify(relative(OUT, args.path))}, import.meta.url).href`;
      return { contents: text.replaceAll("import.meta.url", own), loader: "js" };
    });
  },
};

export async function bundleCli() {
  rmSync(join(OUT, "main.js.map"), { force: true }); // tsc's, of the file the bundle replaces
  await build({
    entryPoints: [join(OUT, "main.js")],
    outfile: join(OUT, "main.js"),
    allowOverwrite: true,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: EXTERNAL,
    // The CommonJS packages inside call require(): in an ES module it has to be made.
    banner: {
      js: 'import { createRequire as __ctsCreateRequire } from "node:module"; const require = __ctsCreateRequire(import.meta.url);',
    },
    plugins: [ownImportMetaUrl],
    logLevel: "warning",
  });
}
