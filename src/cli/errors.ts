import { CommanderError } from "commander";
import { ConfigError } from "../config.js";
import { AppError, type ErrorDetail } from "../errors.js";

/** A command line the user must correct (exit 2), as opposed to a failure while running (exit 1). */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * What `cts` reports when a command stops: the exit code of its class (2: the command line or the
 * configuration must change; 1: it failed while running) and the API's error shape (API.md §2), with
 * `usage_error`, `config_error` and `failed` beside the API's codes.
 */
export interface CliFailure {
  exitCode: 1 | 2;
  code: string;
  message: string;
  details?: ErrorDetail[];
}

export function failureOf(err: unknown): CliFailure {
  if (err instanceof CommanderError) {
    return { exitCode: 2, code: "usage_error", message: err.message.replace(/^error: /, "").trim() };
  }
  if (err instanceof UsageError) return { exitCode: 2, code: "usage_error", message: err.message };
  if (err instanceof ConfigError) {
    return { exitCode: 2, code: "config_error", message: `Invalid configuration: ${err.problems.join("; ")}` };
  }
  if (err instanceof AppError) {
    return { exitCode: 1, code: err.code, message: err.message, ...(err.details && { details: err.details }) };
  }
  return { exitCode: 1, code: "failed", message: err instanceof Error ? err.message : String(err) };
}

/** One line on stderr: `cts: <sentence>`, or with --json the error body as JSON. */
export function reportFailure(err: unknown, json: boolean): number {
  const { exitCode, ...error } = failureOf(err);
  // Commander has already printed its own usage error (and the help) unless --json silenced it.
  if (json) process.stderr.write(`${JSON.stringify({ error })}\n`);
  else if (!(err instanceof CommanderError)) process.stderr.write(`cts: ${humanMessage(err, error.message)}\n`);
  return exitCode;
}

/** A configuration error keeps its list, one problem a line; everything else is its sentence. */
function humanMessage(err: unknown, message: string): string {
  return err instanceof ConfigError ? err.message : message;
}
