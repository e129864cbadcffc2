import { readFileSync } from "node:fs";
import { Command, type OutputConfiguration } from "commander";
import { loadConfig } from "../config.js";
import { doctorCommand } from "./doctor.js";
import { importCommand } from "./import.js";
import { keysCommand } from "./keys.js";
import { mcpCommand } from "./mcp.js";
import { seedCommand } from "./seed.js";
import { usersCommand } from "./users.js";

const VERSION: string = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;

/** Every `cts` command (tests walk it: each command's usage errors and failures are checked the same way). */
export function buildProgram(output: OutputConfiguration = {}): Command {
  // Set before the subcommands are added: each copies it (and exitOverride) when created.
  const program = new Command()
    .configureOutput(output)
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
  importCommand(program);
  doctorCommand(program);
  seedCommand(program);
  mcpCommand(program);
  return program;
}
