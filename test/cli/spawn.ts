import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The compiled CLI: test/global-setup.ts recompiles it when src/ changed since (a tsx child took ~5 s more). */
export const CLI = ["dist/cli/main.js"];

/** Env for a child cts: only what the test sets, plus PATH/HOME, so the developer's env cannot leak in. */
export function ctsEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, CTS_LOG_LEVEL: "info", ...extra };
}

/**
 * Fills `dataDir` with a copy of the migrated, keyless cluster test/global-setup.ts made once: to `cts`
 * the same as a data dir whose first start was stopped before it created its bootstrap key, without the
 * migrations a fresh one runs. Returns `dataDir`.
 */
export function fromTemplate(dataDir: string): string {
  cpSync(inject("dataDirTemplate"), dataDir, { recursive: true });
  return dataDir;
}

export function runCts(
  args: string[],
  env: NodeJS.ProcessEnv,
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...CLI, ...args], { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface RunningServer {
  child: ChildProcess;
  port: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `cts serve` on a free port and resolves once it logged that it is serving. */
export function startServer(env: NodeJS.ProcessEnv, args: string[] = []): Promise<RunningServer> {
  return startCts(["serve", ...args], { ...env, CTS_PORT: "0" }, "cts serving");
}

/** Starts `cts worker` and resolves once it logged that it runs. */
export function startWorker(env: NodeJS.ProcessEnv): Promise<RunningServer> {
  return startCts(["worker"], env, "cts worker running");
}

function startCts(args: string[], env: NodeJS.ProcessEnv, readyMessage: string): Promise<RunningServer> {
  const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, env });
  let out = "";
  let err = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start:\n${out}\n${err}`)), 90_000);
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.includes(`"${readyMessage}"`));
      if (!line) return;
      clearTimeout(timer);
      const port = (JSON.parse(line).address?.port as number | undefined) ?? 0;
      resolve({ child, port, stdout: () => out, stderr: () => err, exited });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited with ${code}:\n${out}\n${err}`));
    });
  });
}
