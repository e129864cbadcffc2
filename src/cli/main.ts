#!/usr/bin/env node
import { CommanderError } from "commander";
import { reportFailure } from "./errors.js";
import { buildProgram } from "./program.js";

// With --json anywhere on the line, errors are JSON too (usage errors included), so commander stays quiet.
const json = process.argv.includes("--json");
const program = buildProgram(json ? { writeErr: () => {} } : {});

try {
  await program.parseAsync(process.argv);
} catch (err) {
  // --help and --version end through the same exception, with exit code 0.
  if (err instanceof CommanderError && err.exitCode === 0) process.exit(0);
  process.exit(reportFailure(err, json));
}
