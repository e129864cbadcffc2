import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceOrigin } from "../../src/http/origin.js";
import { createApiKey, createUser, errorOf } from "../factories.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";
import { callRow, operations } from "../route-case.js";
import { prepareRoutes, ROUTES } from "../route-rows.js";
import { signedInAs } from "../sessions.js";

/**
 * API.md §20 (d): every origin the service writes or checks — invitation URLs, every list's `Link`,
 * `Location`, the OpenAPI `servers`, the MCP and session CSRF `Origin` checks — is CTS_PUBLIC_URL, else
 * the listen address; never the request's Host or X-Forwarded-Host, even behind a trusted proxy.
 */
const HOSTILE = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
const EVIL = "https://evil.example";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe.each([
  { setting: "CTS_PUBLIC_URL", publicUrl: "https://commissions.example.com" },
  { setting: "the listen address", publicUrl: undefined },
])("§20 (d) the origin is $setting", ({ publicUrl }) => {
  let t: TestApp;
  let origin: string;
  let admin: string;
  beforeAll(async () => {
    // Behind a trusted proxy, so Fastify itself would believe X-Forwarded-Host: the service must not.
    t = await createTestApp({ trustProxy: 1, listen: true, ...(publicUrl && { publicUrl }) });
    origin = publicUrl ?? `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = (await createApiKey(t, "admin")).key;
    await prepareRoutes(t);
  });
  afterAll(async () => t?.close());

  it("is the OpenAPI servers entry", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json", headers: HOSTILE });
    expect(res.json().servers).toEqual([{ url: origin, description: "This deployment" }]);
  });

  it("starts every link of every list's Link header (the lists of the served document)", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json();
    const lists = (await operations(t)).filter((op) => {
      const schema = doc.paths[op.path][op.method.toLowerCase()].responses["200"]?.content?.["application/json"]
        ?.schema as { properties?: Record<string, unknown> } | undefined;
      return op.method === "GET" && op.access === "key" && schema?.properties?.data && schema.properties.meta;
    });
    expect(lists.length).toBeGreaterThan(10);
    for (const list of lists) {
      const row = ROUTES.find((r) => r.method === "GET" && r.path === list.path);
      expect(row, `a row in test/route-rows.ts for GET ${list.path}`).toBeDefined();
      // A list that needs a query (GET /users/statements' period) keeps its row's.
      const query = [row!.query, "per_page=1"].filter(Boolean).join("&");
      const res = await callRow(t, row!, { key: admin, query, headers: HOSTILE });
      expect(res.statusCode, `GET ${list.path}: ${res.body}`).toBe(200);
      const targets = [...String(res.headers.link).matchAll(/<([^>]+)>/g)].map((m) => m[1]!);
      expect(targets.length, list.path).toBeGreaterThanOrEqual(2);
      for (const target of targets) expect(new URL(target).origin, `GET ${list.path}: ${target}`).toBe(origin);
    }
  });

  it("starts the Location of every 201 (the creates of the security table)", async () => {
    const creates = ROUTES.filter((r) => r.ok === 201 && r.path !== "/api/v1/users/{id}/invitations");
    expect(creates.length).toBeGreaterThan(8);
    for (const row of creates) {
      const res = await callRow(t, row, { key: admin, headers: HOSTILE });
      expect(res.statusCode, `${row.method} ${row.path}: ${res.body}`).toBe(201);
      expect(res.headers.location, `${row.method} ${row.path}`).toMatch(new RegExp(`^${origin}/api/v1/`));
    }
  });

  it("starts an invitation's url", async () => {
    const user = await createUser(t);
    const res = await t.app.inject({
      method: "POST",
      url: `/api/v1/users/${user.id}/invitations`,
      headers: { ...HOSTILE, ...bearer(admin) },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().url).toMatch(new RegExp(`^${origin}/invite#[A-Za-z0-9_-]{43}$`));
  });

  it("is the one Origin /mcp accepts: the Host's own is refused", async () => {
    const mcp = (from: string) =>
      t.app.inject({
        method: "POST",
        url: "/mcp",
        headers: { ...HOSTILE, ...bearer(admin), ...MCP_HEADERS, origin: from },
        payload: INIT,
      });
    expect((await mcp(origin)).statusCode).toBe(200);
    for (const from of [EVIL, "http://evil.example"]) {
      const refused = await mcp(from);
      expect([refused.statusCode, errorOf(refused).code]).toEqual([403, "forbidden"]);
      expect(errorOf(refused).message).toBe(
        `Origin ${from} may not use /mcp; only ${origin} (or no Origin header) may`,
      );
    }
  });

  it("is the one Origin a session's write and a sign-in pass the CSRF check with", async () => {
    const session = await signedInAs(t, { role: "admin" });
    const create = (from: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/v1/users",
        headers: { ...HOSTILE, ...session.headers("POST"), origin: from },
        payload: { name: "Grace", email: `grace.${from.length}.${Date.now()}@example.com` },
      });
    const refused = await create(EVIL);
    expect([refused.statusCode, errorOf(refused).message]).toEqual([403, "CSRF check failed"]);
    expect((await create(origin)).statusCode).toBe(201);

    const login = (from: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/v1/auth/login",
        headers: { ...HOSTILE, origin: from },
        payload: { email: "nobody@example.com", password: "not the password at all" },
      });
    const foreign = await login(EVIL);
    expect([foreign.statusCode, errorOf(foreign).message]).toEqual([403, "CSRF check failed"]);
    expect((await login(origin)).statusCode).toBe(401);
  });
});

describe("§20 (d) the listen address as an origin", () => {
  it.each([
    [{ host: "127.0.0.1", port: 3000, tls: false }, "http://127.0.0.1:3000"],
    [{ host: "0.0.0.0", port: 8080, tls: false }, "http://localhost:8080"],
    [{ host: "::", port: 8080, tls: true }, "https://localhost:8080"],
    [{ host: "::1", port: 4000, tls: false }, "http://[::1]:4000"],
    [{ host: "cts.internal", port: 443, tls: true }, "https://cts.internal"],
    [{ host: "CTS.Internal", port: 80, tls: false }, "http://cts.internal"],
  ])("%o → %s", (listen, origin) => {
    expect(serviceOrigin({ publicUrl: undefined, ...listen })).toBe(origin);
  });

  it("CTS_PUBLIC_URL wins over any listen address", () => {
    const settings = { host: "0.0.0.0", port: 3000, tls: false };
    expect(serviceOrigin({ ...settings, publicUrl: "https://cts.example.com" })).toBe("https://cts.example.com");
  });
});
