import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { OpenAPIV3_1 } from "openapi-types";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");

type Generate = (dir: string) => Promise<unknown>;

/**
 * In a temporary folder: `generate` writes the client from `doc` (openapi.json there), then `script`
 * (client.ts) is type-checked under strict tsc and run with `args`; returns its stdout.
 */
async function runClient(doc: OpenAPIV3_1.Document, generate: Generate, script: string, args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "cts-client-"));
  try {
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(doc));
    await generate(dir);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, module: "nodenext", target: "es2022", outDir: "out", skipLibCheck: true },
        files: ["client.ts"],
      }),
    );
    writeFileSync(join(dir, "client.ts"), script);
    await run(join(ROOT, "node_modules/.bin/tsc"), ["-p", join(dir, "tsconfig.json")]).catch((err) => {
      throw new Error(`tsc: ${err.stdout}`);
    });
    return (await run(process.execPath, [join(dir, "out/client.js"), ...args])).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Types from `doc` by openapi-typescript (`./api.js`), for a script that calls through openapi-fetch. */
export function runGeneratedClient(doc: OpenAPIV3_1.Document, script: string, args: string[]): Promise<string> {
  const generate: Generate = (dir) =>
    run(join(ROOT, "node_modules/.bin/openapi-typescript"), [join(dir, "openapi.json"), "-o", join(dir, "api.d.ts")]);
  return runClient(doc, generate, script, args);
}

/** orval's axios functions from `doc` (`./api.js`, one function per operation), for a script that calls them. */
export function runOrvalClient(doc: OpenAPIV3_1.Document, script: string, args: string[]): Promise<string> {
  const generate: Generate = (dir) =>
    run(
      join(ROOT, "node_modules/.bin/orval"),
      ["--input", "openapi.json", "--output", "api.ts", "--client", "axios-functions", "--mode", "single"],
      { cwd: dir },
    );
  return runClient(doc, generate, script, args);
}
