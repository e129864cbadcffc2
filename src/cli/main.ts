#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { ZodError } from "zod";
import { ConfigError, loadConfig } from "../config.js";
import { doctorCommand } from "./doctor.js";
import { keysCommand } from "./keys.js";
import { mcpCommand } from "./mcp.js";
import { UsageError } from "./owner.js";
import { seedCommand } from "./seed.js";
import { usersCommand } from "./users.js";

const VERSION: string = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;

const program = new Command()
  .name("cts")
  .description(
    "Commission Tracking Service: API server, worker and owner commands. Configuration comes from CTS_* env vars.",
  )
  .version(VERSION)
  .showHelpAfterError()
  .exitOverride();

program
  .command("serve")
  .description("Run the HTTP API (and, unless --no-worker, the background worker)")
  .option("--no-worker", "do not run background work in this process (run `cts worker` separately)")
  .action(async (o: { worker: boolean }) => (await import("../main.js")).serve(loadConfig(), { worker: o.worker }));

program
  .command("worker")
  .description("Run background work only (recalculations, webhook deliveries, retention)")
  .action(async () => (await import("../main.js")).work(loadConfig()));

keysCommand(program);
usersCommand(program);
doctorCommand(program);
seedCommand(program);
mcpCommand(program);

function explain(err: unknown): { message: string; exitCode: number } {
  if (err instanceof ConfigError || err instanceof UsageError) return { message: err.message, exitCode: 2 };
  if (err instanceof ZodError)
    return { message: err.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"), exitCode: 2 };
  return { message: (err as Error).message ?? String(err), exitCode: 1 };
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  const { message, exitCode } = explain(err);
  process.stderr.write(`cts: ${message}\n`);
  process.exit(exitCode);
}
