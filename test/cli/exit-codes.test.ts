import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/program.js";
import { CLI, ctsEnv, fromTemplate, type RunningServer, startServer } from "./spawn.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const POSTGRES = !!process.env.TEST_DATABASE_URL;
const root = mkdtempSync(join(tmpdir(), "cts-exit-"));
const env = ctsEnv({ CTS_DATA_DIR: join(root, "data"), CTS_PORT: "0" });
// The failures below need a database; each of their tests works on it alone (no key, no row is written).
if (!POSTGRES) fromTemplate(join(root, "data"));
const running: RunningServer[] = [];
afterAll(() => {
  for (const s of running) s.child.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cts(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, [...CLI, ...args], { cwd: ROOT, env: { ...env, ...extraEnv } });
  const run = { stdout: "", stderr: "" };
  child.stdout.on("data", (d) => {
    run.stdout += d;
  });
  child.stderr.on("data", (d) => {
    run.stderr += d;
  });
  child.stdin.end();
  return new Promise((resolve) => child.on("close", (status) => resolve({ ...run, status })));
}

/** Every command that runs something, from the program itself: a new command is checked by itself. */
function leaves(command: Command, path: string[] = []): { path: string[]; command: Command }[] {
  if (command.commands.length === 0) return [{ path, command }];
  return command.commands.flatMap((sub) => leaves(sub, [...path, sub.name()]));
}
const LEAVES = leaves(buildProgram());
const GROUPS = [...new Set(LEAVES.map((l) => l.path.slice(0, -1).join(" ")))].map((g) => (g ? g.split(" ") : []));

/** Well-formed values for a leaf's required arguments and mandatory options (the checks below come first). */
const arg = (name: string) => ({ email: "a@example.com", level: "read" })[name] ?? "key_1";
const option = (long: string) => ({ "--scope": ["--scope", "read"], "--name": ["--name", "x"] })[long] ?? [long];
const required = (command: Command) => command.registeredArguments.filter((a) => a.required);
const mandatory = (command: Command, skip?: string) =>
  command.options.filter((o) => o.mandatory && o.long !== skip).flatMap((o) => option(o.long!));
const filled = (command: Command, skip?: string) => [
  ...required(command).map((a) => arg(a.name())),
  ...mandatory(command, skip),
];

/** [command line, commander's sentence] for every usage error the program declares. */
const USAGE: [string, string[], string][] = [
  ...LEAVES.map(({ path, command }): [string, string[], string] => [
    `${path.join(" ")}: an unknown option`,
    [...path, ...filled(command), "--no-such-option"],
    "unknown option '--no-such-option'",
  ]),
  ...LEAVES.filter(({ command }) => required(command).length > 0).map(
    ({ path, command }): [string, string[], string] => [
      `${path.join(" ")}: no arguments`,
      [...path, ...mandatory(command)],
      `missing required argument '${required(command)[0]!.name()}'`,
    ],
  ),
  ...LEAVES.flatMap(({ path, command }) =>
    command.options
      .filter((o) => o.mandatory)
      .map((o): [string, string[], string] => [
        `${path.join(" ")}: no ${o.long}`,
        [...path, ...filled(command, o.long)],
        `required option '${o.flags}' not specified`,
      ]),
  ),
  ["an unknown command", ["no-such-command"], "unknown command 'no-such-command'"],
];

/** Values the CLI checks itself before running anything: a usage error in its own words. */
const VALUES: [string[], string][] = [
  [["keys", "create", "--scope", "owner", "--name", "x"], '--scope must be one of read, write, admin, not "owner"'],
  [["keys", "mcp-access", "key_1", "all"], 'level must be one of read, write, admin, not "all"'],
  [
    ["users", "invite", "a@example.com", "--role", "boss"],
    '--role must be one of rep, manager, admin, finance, not "boss"',
  ],
  [
    ["keys", "create", "--scope", "read", "--name", "x", "--expires-at", "tomorrow"],
    '--expires-at must be an RFC 3339 timestamp such as 2030-12-31T23:59:59Z, not "tomorrow"',
  ],
];

describe("#26 every command: a usage error exits 2; with --json it is one JSON line", () => {
  it("the table covers every command", () => {
    expect(LEAVES.map((l) => l.path.join(" ")).sort()).toEqual([
      "doctor",
      "import deals",
      "import users",
      "keys create",
      "keys list",
      "keys mcp-access",
      "keys revoke",
      "mcp",
      "seed",
      "serve",
      "users invite",
      "worker",
    ]);
  });

  it.each(USAGE)("%s", async (_, args, message) => {
    const [plain, json] = await Promise.all([cts(args), cts([...args, "--json"])]);
    expect([plain.status, plain.stdout, plain.stderr.split("\n")[0]]).toEqual([2, "", `error: ${message}`]);
    expect(json).toEqual({
      status: 2,
      stdout: "",
      stderr: `${JSON.stringify({ error: { code: "usage_error", message } })}\n`,
    });
  });

  it.each(VALUES)("cts %j", async (args, message) => {
    const [plain, json] = await Promise.all([cts(args), cts([...args, "--json"])]);
    expect(plain).toEqual({ status: 2, stdout: "", stderr: `cts: ${message}\n` });
    expect(json).toEqual({
      status: 2,
      stdout: "",
      stderr: `${JSON.stringify({ error: { code: "usage_error", message } })}\n`,
    });
  });

  it.each(GROUPS.map((path) => [path.join(" ") || "(none)", path]))(
    "a command group without its command: %s",
    async (_, path) => {
      const r = await cts(path as string[]);
      expect([r.status, r.stdout]).toEqual([2, ""]);
      expect(r.stderr).toMatch(/^Usage: cts /);
    },
  );

  it("an invalid CTS_* variable is a usage error too: the list on stderr, or one JSON line", async () => {
    const bad = { CTS_PORT: "notaport" };
    const [plain, json] = await Promise.all([cts(["keys", "list"], bad), cts(["keys", "list", "--json"], bad)]);
    const problem = "CTS_PORT must be a port number (0-65535)";
    expect(plain).toEqual({ status: 2, stdout: "", stderr: `cts: Invalid configuration:\n  - ${problem}\n` });
    const error = { code: "config_error", message: `Invalid configuration: ${problem}` };
    expect(json).toEqual({ status: 2, stdout: "", stderr: `${JSON.stringify({ error })}\n` });
  });

  it("--help and --version exit 0", async () => {
    expect((await cts(["keys", "create", "--help"])).status).toBe(0);
    expect(await cts(["--version"])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
  });
});

/** [command line, code, sentence]: failures of the owner commands, the same through a running server or not. */
const FAILURES: [string[], string, string, object?][] = [
  [["keys", "revoke", "key_nope"], "not_found", "API key key_nope not found"],
  [["keys", "mcp-access", "key_nope", "write"], "not_found", "API key key_nope not found"],
  [
    ["users", "invite", "not-an-email"],
    "validation_error",
    "email must be a valid email address",
    { details: [{ param: "email", message: "must be a valid email address" }] },
  ],
];

describe.skipIf(POSTGRES)("#26 a failure exits 1 with one sentence, or one JSON line with --json", () => {
  async function expectFailures() {
    for (const [args, code, message, extra] of FAILURES) {
      const [plain, json] = [await cts(args), await cts([...args, "--json"])];
      expect(plain, args.join(" ")).toEqual({ status: 1, stdout: "", stderr: `cts: ${message}\n` });
      const body = { error: { code, message, ...extra } };
      expect(json, args.join(" ")).toEqual({ status: 1, stdout: "", stderr: `${JSON.stringify(body)}\n` });
    }
  }

  it("through the running server's owner socket", { timeout: 240_000 }, async () => {
    const server = await startServer(env);
    running.push(server);
    await expectFailures();
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  it("on the data dir directly", { timeout: 120_000 }, async () => {
    await expectFailures();
  });
});
