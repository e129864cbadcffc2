import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stateFile } from "./api.js";
import { seed } from "./seed.js";

const ROOT = new URL("..", import.meta.url).pathname;

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`cts serve exited (${child.exitCode}):\n${log()}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`cts serve did not answer /healthz within 60 s:\n${log()}`);
}

/** A real `cts serve` (the built dist/, console included) on a fresh embedded data dir, then the seed. */
async function startSeeded(url: string, index: number): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), "cts-e2e-"));
  const env = {
    ...process.env,
    CTS_DATA_DIR: join(dataDir, "data"),
    CTS_PORT: new URL(url).port,
    CTS_HOST: "127.0.0.1",
    CTS_LOG_LEVEL: "warn",
    // The webhook specs deliver to a receiver they start on 127.0.0.1 (any port: the OS picks it). The
    // public-address rule refuses loopback and http; API.md §6 lets the operator exempt loopback hosts
    // and allow http for them outside CTS_ENV=live. Every other target keeps the full rule (the spec's
    // 422 case uses a private address).
    CTS_WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
    CTS_WEBHOOK_ALLOW_HTTP: "1",
    // A plan-change impact over this many lines answers 202 with a plan_impact job (API.md §12). The
    // default (20,000) is too many lines to build in a test, so plans.spec.ts makes a plan of 205 lines
    // and the console polls the real job; every other impact in the suite (the seed's plan, the specs'
    // own plans) stays far below 200 and is answered inline.
    CTS_PLAN_IMPACT_INLINE_LINES: "200",
  };
  let output = "";
  const server = spawn(process.execPath, ["dist/cli/main.js", "serve"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (d) => (output += d));
  server.stderr!.on("data", (d) => (output += d));
  await waitForHealth(url, server, () => output);
  const created = execFileSync(
    process.execPath,
    ["dist/cli/main.js", "keys", "create", "--scope", "admin", "--name", "e2e seed", "--json"],
    { cwd: ROOT, env, encoding: "utf8" },
  );
  const { key } = JSON.parse(created.trim().split("\n").at(-1)!);
  writeFileSync(stateFile(index), JSON.stringify(await seed(url, key), null, 2));
  return async () => {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(stateFile(index), { force: true });
  };
}

/**
 * One server and database per Playwright worker (CTS_E2E_URLS, set by playwright.config.ts): a worker's
 * files run one after another against its own, as the whole suite once ran against one; the workers
 * overlap the seconds each test spends waiting on its page.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const urls = process.env.CTS_E2E_URLS!.split(",");
  const stops = await Promise.all(urls.map((url, index) => startSeeded(url, index)));
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
