import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../factories.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";

/**
 * #13.8: one origin rule for the OpenAPI `servers` entry, `Link` headers and the MCP Origin check —
 * CTS_PUBLIC_URL when set, else the request's own origin (API.md §0).
 */
const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe.each([
  { publicUrl: undefined, origin: "http://cts.internal:8443" },
  { publicUrl: "https://commissions.example.com", origin: "https://commissions.example.com" },
])("#13.8 the public origin with CTS_PUBLIC_URL=$publicUrl", ({ publicUrl, origin }) => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp(publicUrl ? { publicUrl } : {});
    key = (await t.key("admin")).key;
    await createUser(t);
    await createUser(t);
  });
  afterAll(async () => t?.close());
  const host = { host: "cts.internal:8443" };

  it("is the OpenAPI servers entry", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json", headers: host });
    expect(res.json().servers).toEqual([{ url: origin, description: "This deployment" }]);
  });

  it("starts every Link", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/api/v1/users?per_page=1",
      headers: { ...host, ...bearer(key) },
    });
    expect(res.statusCode).toBe(200);
    const targets = [...String(res.headers.link).matchAll(/<([^>]+)>/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(target.startsWith(`${origin}/api/v1/users?`), target).toBe(true);
  });

  it("is an Origin /mcp accepts; a foreign one gets 403", async () => {
    const ok = await t.app.inject({
      method: "POST",
      url: "/mcp",
      headers: { ...host, ...bearer(key), ...MCP_HEADERS, origin },
      payload: INIT,
    });
    expect(ok.statusCode).toBe(200);
    const foreign = await t.app.inject({
      method: "POST",
      url: "/mcp",
      headers: { ...host, ...bearer(key), ...MCP_HEADERS, origin: "https://evil.example" },
      payload: INIT,
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.code).toBe("forbidden");
  });
});
