import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import { setMcpAccess } from "../../src/api-keys/index.js";
import { type Scope, scopeAllows } from "../../src/context.js";
import type { ErrorBody } from "../../src/errors.js";
import { TOOLS } from "../../src/mcp/tools.js";
import { createApiKey, parseErrorBody } from "../factories.js";
import { bearer, type TestApp } from "../harness.js";

/** Listens on a free loopback port; returns the origin (`http://127.0.0.1:PORT`). */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

/** A key of `scope` whose owner granted `grant` (new keys start at read). */
export async function mcpKey(t: TestApp, scope: Scope, grant: Scope = "read") {
  const key = await createApiKey(t, scope);
  if (grant !== "read") await setMcpAccess(t.ownerCtx(), key.id, grant);
  return key;
}

/** The SDK's own client over Streamable HTTP, as an assistant would connect. */
export async function connect(origin: string, key: string): Promise<Client> {
  const client = new Client({ name: "cts-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", origin), {
    requestInit: { headers: bearer(key) },
  });
  await client.connect(transport);
  return client;
}

export async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The contract error body carried as an error result's text. */
export function errorIn(result: CallToolResult): ErrorBody["error"] {
  expect(result.isError).toBe(true);
  const first = result.content[0];
  if (first?.type !== "text") throw new Error("error result without text");
  return parseErrorBody(JSON.parse(first.text));
}

/** One raw JSON-RPC POST, for headers and status codes the SDK client hides. */
export function post(origin: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(new URL("/mcp", origin), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

/** The table's tools a key reaches when both its scope and its grant are at least `level`. */
export function namesUpTo(level: Scope): string[] {
  return TOOLS.filter((tool) => scopeAllows(level, tool.scope) && scopeAllows(level, tool.access))
    .map((tool) => tool.name)
    .sort();
}
