import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../cli/spawn.js";
import { createTestApp, type TestApp } from "../harness.js";
import { listen, mcpKey, namesUpTo } from "./client.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The MCP Inspector's CLI (a dev dependency): a client other than the SDK's, with its own schema checks. */
const INSPECTOR = join(ROOT, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");

let t: TestApp;
let origin: string;
let key: string;
const home = mkdtempSync(join(tmpdir(), "cts-inspector-"));

beforeAll(async () => {
  t = await createTestApp();
  origin = await listen(t);
  key = (await mcpKey(t, "admin", "admin")).key;
});

afterAll(async () => {
  await t?.close();
  rmSync(home, { recursive: true, force: true });
});

/** `inspector --cli … --method tools/list --strict`: findings on stderr, and exit 6 on an error-severity one. */
function inspect(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  // Its catalog and storage go to a HOME of its own, not the developer's.
  const env = { PATH: process.env.PATH, HOME: home };
  const child = spawn(process.execPath, [INSPECTOR, "--cli", "--method", "tools/list", "--strict", ...args], {
    cwd: ROOT,
    env,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
}

describe("#26 the MCP Inspector lists every tool with no portability finding", () => {
  it.each([
    ["Streamable HTTP (/mcp with a key)", () => [`${origin}/mcp`, "--header", `Authorization: Bearer ${key}`]],
    [
      "stdio (cts mcp)",
      () => ["-e", `CTS_API_URL=${origin}`, "-e", `CTS_API_KEY=${key}`, "--", process.execPath, ...CLI, "mcp"],
    ],
  ])("%s", { timeout: 60_000 }, async (_, args) => {
    const r = await inspect(args());
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const { tools } = JSON.parse(r.stdout) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name).sort()).toEqual(namesUpTo("admin"));
  });
});
