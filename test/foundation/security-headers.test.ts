import Fastify from "fastify";
import type { OpenAPIV3_1 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replyHeaderStore, SECURITY_HEADERS, writeSecurityHeaders } from "../../src/app/security-headers.js";
import { freshIp } from "../factories.js";
import { bearer, createTestApp, type TestApp } from "../harness.js";

/**
 * #13.7: the security headers on every response — every route of the table (the OpenAPI document plus
 * the hidden routes), with and without a key, and the 404, 405, 400, 413 and framework errors.
 */
let t: TestApp;
let admin: string;
let operations: [string, string][];
const HIDDEN: [string, string][] = [
  ["GET", "/api/v1/openapi.json"],
  ["POST", "/mcp"],
  ["GET", "/docs"],
  ["GET", "/docs/"],
  ["GET", "/docs/js/scalar.js"],
];

beforeAll(async () => {
  t = await createTestApp();
  admin = (await t.key("admin")).key;
  const doc: OpenAPIV3_1.Document = (await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" })).json();
  operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item ?? {}).map((method): [string, string] => [method.toUpperCase(), path.replace(/\{[^}]+\}/g, "x")]),
  );
  expect(operations.length).toBeGreaterThan(40);
});
afterAll(async () => t?.close());

type Res = { statusCode: number; headers: Record<string, unknown> };

/** `all`: helmet's whole set; a URL refused before routing (Fastify's frameworkErrors) gets the four of #13.7. */
function expectSecurityHeaders(res: Res, where: string, csp = "default-src 'none'", all = true) {
  expect(res.headers["x-content-type-options"], where).toBe("nosniff");
  expect(res.headers["referrer-policy"], where).toBe("no-referrer");
  expect(res.headers["x-frame-options"], where).toBe("DENY");
  const policy = String(res.headers["content-security-policy"]);
  expect(policy, where).toContain("frame-ancestors 'none'");
  expect(policy.startsWith(csp), where).toBe(true);
  expect(res.headers["strict-transport-security"], where).toBeUndefined(); // plain HTTP: no HSTS
  if (!all) return;
  expect(
    {
      coop: res.headers["cross-origin-opener-policy"],
      oac: res.headers["origin-agent-cluster"],
      dns: res.headers["x-dns-prefetch-control"],
      download: res.headers["x-download-options"],
      xdomain: res.headers["x-permitted-cross-domain-policies"],
      xss: res.headers["x-xss-protection"],
      corp: res.headers["cross-origin-resource-policy"],
      poweredBy: res.headers["x-powered-by"],
    },
    where,
  ).toEqual({
    coop: "same-origin",
    oac: "?1",
    dns: "off",
    download: "noopen",
    xdomain: "none",
    xss: "0",
    corp: undefined, // the API is called cross-origin by design
    poweredBy: undefined,
  });
}

describe("#13.7 security headers on every response", () => {
  it("every route, without a key and with an admin key", async () => {
    for (const [method, url] of [...operations, ...HIDDEN]) {
      for (const headers of [{}, bearer(admin)]) {
        const payload = method === "GET" || method === "DELETE" ? undefined : {};
        const res = await t.app.inject({
          method: method as "GET",
          url,
          headers,
          remoteAddress: freshIp(),
          ...(payload ? { payload } : {}),
        });
        const csp =
          url.startsWith("/docs/") && !url.includes("/js/") && res.statusCode === 200
            ? "default-src 'none';script-src 'self' 'sha256-"
            : "default-src 'none'";
        expectSecurityHeaders(res, `${method} ${url} → ${res.statusCode}`, csp);
      }
    }
  });

  it("404, 405, malformed JSON, a body too large, a bad URL, and /healthz", async () => {
    // A key of its own: the walk above spends more than a key's 100 requests a minute.
    const key = (await t.key("admin")).key;
    const cases = [
      { method: "GET", url: "/nowhere", status: 401 },
      { method: "GET", url: "/api/v1/nowhere", status: 401 },
      { method: "DELETE", url: "/api/v1/users", status: 405, key: true },
      { method: "POST", url: "/api/v1/users", status: 400, key: true, body: "{", type: "application/json" },
      {
        method: "POST",
        url: "/api/v1/users",
        status: 413,
        key: true,
        body: "x".repeat(1_100_000),
        type: "application/json",
      },
      { method: "GET", url: "/api/v1/users/%E0%A4%A", status: 400, key: true, framework: true },
      { method: "GET", url: "/healthz", status: 200 },
      { method: "GET", url: "/readyz", status: 200 },
    ];
    for (const c of cases) {
      const res = await t.app.inject({
        method: c.method as "GET",
        url: c.url,
        remoteAddress: freshIp(),
        headers: { ...(c.key ? bearer(key) : {}), ...(c.type ? { "content-type": c.type } : {}) },
        ...(c.body ? { payload: c.body } : {}),
      });
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(c.status);
      expectSecurityHeaders(res, `${c.method} ${c.url}`, undefined, !c.framework);
    }
  });
});

describe("the security headers as one block (security-headers.ts writeSecurityHeaders)", () => {
  it("writes the bytes reply.headers(SECURITY_HEADERS) writes, into Fastify's own header store", async () => {
    const bare = Fastify();
    bare.get("/block", (_req, reply) => {
      writeSecurityHeaders(reply);
      reply.header("Request-Id", "req_1");
      return { store: replyHeaderStore(reply)?.description ?? null };
    });
    bare.get("/one-by-one", (_req, reply) => {
      reply.headers(SECURITY_HEADERS);
      reply.header("Request-Id", "req_1");
      return { store: "fastify.reply.headers" };
    });
    try {
      const block = await bare.inject({ method: "GET", url: "/block" });
      const oneByOne = await bare.inject({ method: "GET", url: "/one-by-one" });
      // Found on this Fastify (else each header would go one at a time, correct but slower).
      expect(block.json()).toEqual({ store: "fastify.reply.headers" });
      const head = (res: typeof block) => res.raw.res.getHeaderNames().filter((name) => name !== "date");
      expect(head(block)).toEqual(head(oneByOne));
      expect(head(block).slice(0, Object.keys(SECURITY_HEADERS).length)).toEqual(
        Object.keys(SECURITY_HEADERS).map((name) => name.toLowerCase()),
      );
      for (const name of head(block)) expect(block.headers[name], name).toBe(oneByOne.headers[name]);
    } finally {
      await bare.close();
    }
  });
});
