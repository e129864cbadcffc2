import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { OpenAPIV3_1 } from "openapi-types";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Generates types from `doc` with openapi-typescript, type-checks `script` (a client.ts importing
 * `./api.js` and openapi-fetch) under strict tsc, runs it with `args`, and returns its stdout.
 */
export async function runGeneratedClient(doc: OpenAPIV3_1.Document, script: string, args: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "cts-client-"));
  try {
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(doc));
    await run(join(ROOT, "node_modules/.bin/openapi-typescript"), [
      join(dir, "openapi.json"),
      "-o",
      join(dir, "api.d.ts"),
    ]);
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
