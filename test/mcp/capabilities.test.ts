import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "../../src/context.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";
import { listen, mcpKey, post } from "./client.js";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "cts-tests", version: "1.0.0" } },
};

let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await createTestApp();
  origin = await listen(t);
});

afterAll(async () => {
  await t?.close();
});

// A stateless server (a new McpServer per request) has no open channel to send list_changed on.
describe("#13.37 initialize advertises only what a stateless server can do", () => {
  const keys: [Scope, Scope][] = [
    ["read", "read"],
    ["write", "write"],
    ["admin", "admin"],
    ["admin", "read"],
  ];
  it.each(keys)("a %s key granted %s: tools without listChanged, nothing else", async (scope, grant) => {
    const key = await mcpKey(t, scope, grant);
    const res = await post(origin, INITIALIZE, bearer(key.key));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { capabilities: Record<string, unknown> } };
    expect(body.result.capabilities).toEqual({ tools: {} });
  });
});
