import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ctsEnv, type RunningServer, startServer } from "../cli/spawn.js";

const POSTGRES = !!process.env.TEST_DATABASE_URL;
const dataDir = mkdtempSync(join(tmpdir(), "cts-modes-"));
const outside = mkdtempSync(join(tmpdir(), "cts-modes-outside-"));
const env = ctsEnv({ CTS_DATA_DIR: dataDir });
const running: RunningServer[] = [];
afterAll(() => {
  for (const s of running) s.child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** Every entry under `dir` (itself included, symlinks not followed): "dir 755", "file 666", … */
function modes(dir: string): Record<string, string> {
  const describe = (path: string) => {
    const stat = lstatSync(path);
    return `${stat.isDirectory() ? "dir" : "file"} ${(stat.mode & 0o777).toString(8)}`;
  };
  const out: Record<string, string> = { ".": describe(dir) };
  for (const rel of readdirSync(dir, { recursive: true }) as string[]) {
    if (!lstatSync(join(dir, rel)).isSymbolicLink()) out[rel] = describe(join(dir, rel));
  }
  return out;
}

/** The entries that are not owner-only (a directory 0700, anything else 0600). */
function notOwnerOnly(all: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(all).filter(([, mode]) => mode !== "dir 700" && mode !== "file 600"));
}

async function startAndStop(): Promise<Record<string, string>> {
  const server = await startServer(env);
  running.push(server);
  const whileRunning = modes(dataDir);
  server.child.kill("SIGTERM");
  await server.exited.catch(() => {});
  return whileRunning;
}

// Embedded only: PostgreSQL keeps no data dir of ours.
describe.skipIf(POSTGRES)("#13.2 the embedded data dir is owner-only", () => {
  it("after a real first start every directory is 0700 and every file 0600", { timeout: 240_000 }, async () => {
    const whileRunning = await startAndStop();
    expect(Object.keys(whileRunning).length).toBeGreaterThan(100);
    expect(whileRunning["cts.sock"]).toBe("file 600");
    expect(notOwnerOnly(whileRunning)).toEqual({});
    expect(notOwnerOnly(modes(dataDir))).toEqual({});
  });

  it("a tree left 0755/0666 by an older version is repaired at start-up", { timeout: 240_000 }, async () => {
    for (const rel of readdirSync(dataDir, { recursive: true }) as string[]) {
      const path = join(dataDir, rel);
      chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o666);
    }
    chmodSync(dataDir, 0o755);
    // A link out of the data dir: its target is not ours to change.
    writeFileSync(join(outside, "shared.txt"), "x");
    chmodSync(join(outside, "shared.txt"), 0o644);
    symlinkSync(join(outside, "shared.txt"), join(dataDir, "link-out"));
    expect(Object.keys(notOwnerOnly(modes(dataDir))).length).toBeGreaterThan(100);

    const whileRunning = await startAndStop();
    expect(notOwnerOnly(whileRunning)).toEqual({});
    expect(notOwnerOnly(modes(dataDir))).toEqual({});
    expect((statSync(join(outside, "shared.txt")).mode & 0o777).toString(8)).toBe("644");
  });
});
