import { spawn } from "node:child_process";
import { type AddressInfo, createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { revokeKey } from "../../src/api-keys/index.js";
import { CLI, ctsEnv } from "../cli/spawn.js";
import { craftKey, createUser, uniqueEmail } from "../factories.js";
import { bearer, createTestApp, TEST_ENV, type TestApp } from "../harness.js";
import { call, errorIn, listen, mcpKey, namesUpTo, toolNames } from "./client.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CTS_MCP = [...CLI, "mcp"];

let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await createTestApp();
  origin = await listen(t);
});

afterAll(async () => {
  await t?.close();
});

/** `cts mcp` with stdin closed at once; async, so this process's server keeps answering the bridge. */
function runBridge(env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, CTS_MCP, { cwd: ROOT, env: ctsEnv(env) });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  child.stdin.end();
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
}

/** A loopback port nothing listens on (taken, then released). */
function closedPort(): Promise<number> {
  const server = createServer();
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    }),
  );
}

/** The SDK's stdio client spawning `cts mcp`, as Claude Desktop or Cursor would. */
async function connectStdio(key: string, stderr: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: CTS_MCP,
    cwd: ROOT,
    env: ctsEnv({ CTS_API_URL: origin, CTS_API_KEY: key }) as Record<string, string>,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d) => stderr.push(String(d)));
  const client = new Client({ name: "cts-stdio-tests", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

describe("cts mcp (stdio bridge) against a running server", () => {
  it("lists and calls the tools the key may use, with the same bodies as REST", async () => {
    const key = await mcpKey(t, "write", "write");
    await createUser(t, { role: "finance" });
    const stderr: string[] = [];
    const client = await connectStdio(key.key, stderr);
    try {
      expect(await toolNames(client)).toEqual(namesUpTo("write"));
      const listed = await call(client, "list_users", { role: "finance" });
      const rest = await t.app.inject({ url: "/api/v1/users?role=finance", headers: bearer(key.key) });
      expect(listed.structuredContent).toEqual(rest.json());

      const created = await call(client, "create_user", { name: "Grace Hopper", email: uniqueEmail("stdio") });
      const id = (created.structuredContent as { id: string }).id;
      const audit = await t.db.db.selectFrom("audit_events").selectAll().where("resource_id", "=", id).execute();
      expect(audit.map((r) => [r.action, r.actor_id])).toEqual([["user.create", key.id]]);
      expect(stderr.join("")).toBe("");
    } finally {
      await client.close();
    }
  });

  it("relays the gate's refusal unchanged", async () => {
    const key = await mcpKey(t, "read");
    const client = await connectStdio(key.key);
    try {
      expect(await toolNames(client)).toEqual(namesUpTo("read"));
      const error = errorIn(await call(client, "create_user", { name: "N", email: uniqueEmail() }));
      expect(error.code).toBe("forbidden");
      expect(error.message).toMatch(/^create_user needs the write scope; this key has read/);
    } finally {
      await client.close();
    }
  });

  it("a key revoked mid-session turns later requests into clear JSON-RPC errors", async () => {
    const key = await mcpKey(t, "read");
    const client = await connectStdio(key.key);
    try {
      await revokeKey(t.ownerCtx(), key.id);
      await expect(client.listTools()).rejects.toThrow(
        `cts mcp: the server at ${origin} refused CTS_API_KEY (401): This API key has been revoked`,
      );
    } finally {
      await client.close();
    }
  });
});

describe("#26 a malformed line on stdin", () => {
  const PARSE_ERROR = `Parse error: Unexpected token 'o', "not json" is not valid JSON`;
  const INVALID = "Invalid Request: not a JSON-RPC 2.0 request, notification or response";

  it.each([
    ["not JSON", "not json", -32700, PARSE_ERROR],
    ["JSON but not JSON-RPC", '{"jsonrpc":"2.0","id":7,"method":5}', -32600, INVALID],
  ])(
    "%s: one short JSON-RPC error line, one line on stderr, and the bridge keeps relaying",
    async (_, line, code, message) => {
      const key = await mcpKey(t, "read");
      const child = spawn(process.execPath, CTS_MCP, {
        cwd: ROOT,
        env: ctsEnv({ CTS_API_URL: origin, CTS_API_KEY: key.key }),
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => {
        stdout += d;
      });
      child.stderr.on("data", (d) => {
        stderr += d;
      });
      const closed = new Promise((resolve) => child.on("close", resolve));
      child.stdin.write(`${line}\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n`);
      await vi.waitFor(() => expect(stdout.split("\n")).toHaveLength(3), { timeout: 15_000 });
      child.stdin.end();
      await closed;
      const [answer, ping] = stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as unknown);
      expect(answer).toEqual({ jsonrpc: "2.0", id: null, error: { code, message } });
      expect(ping).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
      expect(stderr).toBe(`cts mcp: malformed message on stdin: ${message}\n`);
    },
  );
});

describe("cts mcp start-up errors: a clear message on stderr and a non-zero exit", () => {
  it("names each missing variable", async () => {
    const r = await runBridge({});
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("CTS_API_URL is not set");
    expect(r.stderr).toContain("CTS_API_KEY is not set");
    expect(r.stdout).toBe("");
  });

  it("says when the server cannot be reached", async () => {
    const closed = await closedPort();
    const r = await runBridge({ CTS_API_URL: `http://127.0.0.1:${closed}`, CTS_API_KEY: craftKey(TEST_ENV) });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `cts: cannot reach http://127.0.0.1:${closed} (CTS_API_URL): ECONNREFUSED; is \`cts serve\` running there?\n`,
    );
  });

  it("says when the key is refused, with the server's reason", async () => {
    const r = await runBridge({ CTS_API_URL: origin, CTS_API_KEY: craftKey(TEST_ENV) });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^cts: the server at ${origin} refused CTS_API_KEY \\(401\\): \\S`));
    expect(r.stdout).toBe("");
  });

  it("with a good key and stdin closed, exits 0 having written nothing", async () => {
    const key = await mcpKey(t, "read");
    const r = await runBridge({ CTS_API_URL: origin, CTS_API_KEY: key.key });
    expect(r).toEqual({ status: 0, stdout: "", stderr: "" });
  });
});
