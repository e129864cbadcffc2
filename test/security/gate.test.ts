import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, parseErrorBody } from "../factories.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { listenPort, type RawResponse, rawRequest } from "../raw-http.js";
import { operations } from "../route-case.js";

/**
 * #13.1: the authentication gate is decided on the route the router matched, never on the raw URL.
 * Every spelling of every route's path that a router or a proxy might treat as that route — encoded
 * characters, `//`, dot segments, a trailing slash, another case, absolute-form targets — is refused
 * without a key (401, contract body), counted by the rate limiter, and logged.
 */

const t: TestApp = await createTestApp({ clock: new TestClock() });
let port = 0;

/** Every route behind the gate: the OpenAPI document's operations under /api/v1 but the public ones, and /mcp. */
const ROUTES: { method: string; path: string }[] = [
  // Signing in is public by design (test/auth); every other route needs a key or a session.
  ...(await operations(t)).filter((op) => op.access !== "public").map(({ method, path }) => ({ method, path })),
  { method: "POST", path: "/mcp" },
];

const encode = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`;

/** Spellings of `path` (its parameters filled in) that must not slip past the gate. */
function variants(route: string): { label: string; target: string }[] {
  const path = route.replace(/\{\w+\}/g, "x");
  const segments = path.split("/").slice(1);
  const join = (parts: string[]) => `/${parts.join("/")}`;
  const out = segments.map((segment, i) => ({
    label: `segment ${i + 1} starts encoded`,
    target: join(segments.map((s, j) => (j === i ? encode(segment[0]!) + segment.slice(1) : s))),
  }));
  const [first, ...rest] = segments as [string, ...string[]];
  out.push(
    { label: "second character encoded", target: join([first[0] + encode(first[1]!) + first.slice(2), ...rest]) },
    { label: "first segment all encoded", target: join([[...first].map(encode).join(""), ...rest]) },
    { label: "leading double slash", target: `/${path}` },
    { label: "inner double slash", target: join([first, "", ...rest]) },
    { label: "dot segment", target: join([".", ...segments]) },
    { label: "dot-dot segment", target: join(["zz", "..", ...segments]) },
    { label: "encoded dot-dot segment", target: join(["zz", "%2e%2e", ...segments]) },
    { label: "trailing slash", target: `${path}/` },
    { label: "upper case", target: path.toUpperCase() },
    { label: "first segment capitalised", target: join([first[0]!.toUpperCase() + first.slice(1), ...rest]) },
    { label: "absolute-form", target: `http://x${path}` },
    { label: "absolute-form, encoded", target: `http://x${out[0]!.target}` },
    { label: "absolute-form, https and port", target: `https://example.com:8443${path}` },
  );
  if (rest.length > 0) out.push({ label: "encoded slash", target: `/${first}%2F${rest.join("/")}` });
  return out;
}

function send(method: string, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  t.clock!.advance(61_000); // a fresh rate-limit window per request: these checks are about the gate
  const body = method === "GET" || method === "DELETE" ? undefined : "{}";
  return rawRequest(port, { method, target, headers, ...(body ? { body } : {}) });
}

function expectContractError(res: RawResponse, code?: string): void {
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  const error = parseErrorBody(JSON.parse(res.body));
  if (code) expect(error.code).toBe(code);
  else expect(error.code).toMatch(/^[a-z_]+$/);
  expect(error.request_id).toBe(res.headers["request-id"]);
}

async function loggedRows(ids: string[]) {
  await t.requestLog.flush();
  return t.db.db.selectFrom("request_logs").select(["id", "key_id", "status"]).where("id", "in", ids).execute();
}

beforeAll(async () => {
  port = await listenPort(t);
});

afterAll(async () => {
  await t.close();
});

describe("#13.1 the gate on the matched route", () => {
  it("covers a route table with the API and /mcp", () => {
    expect(ROUTES.length).toBeGreaterThan(40);
    expect(ROUTES).toContainEqual({ method: "POST", path: "/mcp" });
  });

  describe.each(ROUTES)("$method $path", (route) => {
    const cases = variants(route.path);

    it("every spelling without a key → 401 unauthorized with the contract body, logged", async () => {
      const ids: string[] = [];
      for (const { label, target } of cases) {
        const res = await send(route.method, target);
        expect(res.status, `${label}: ${route.method} ${target} → ${res.body}`).toBe(401);
        expect(res.headers["www-authenticate"]).toMatch(/^Bearer\b/);
        expectContractError(res, "unauthorized");
        ids.push(res.headers["request-id"] as string);
      }
      const rows = await loggedRows(ids);
      expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
      expect(new Set(rows.map((r) => `${r.status} ${r.key_id}`))).toEqual(new Set(["401 null"]));
    });

    it("every spelling with a key is rate-limited and logged under the key, never a 5xx", async () => {
      const key = await createApiKey(t, "read");
      const ids: string[] = [];
      for (const { label, target } of cases) {
        const res = await send(route.method, target, bearer(key.key));
        expect(res.status, `${label}: ${route.method} ${target} → ${res.body}`).toBeLessThan(500);
        expect(res.headers.ratelimit, `${label}: ${target}`).toBeDefined();
        if (res.status >= 400 && route.path !== "/mcp") expectContractError(res);
        ids.push(res.headers["request-id"] as string);
      }
      const rows = await loggedRows(ids);
      expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
      expect(new Set(rows.map((r) => r.key_id))).toEqual(new Set([key.id]));
    });
  });

  it("unmatched paths outside /api and /mcp need a key too (default deny)", async () => {
    for (const target of [
      "/favicon.ico",
      // Not a console page (`/deals` is one since #28: the console's HTML, public).
      "/commissions",
      "/assets",
      "/admin",
      "/api",
      "/v1/users",
      "http://x/admin",
      "/%2e%2e/etc/passwd",
    ]) {
      const res = await send("GET", target);
      expect(res.status, target).toBe(401);
      expectContractError(res, "unauthorized");
    }
  });

  it("with a key, an unmatched path → 404 not_found with the contract body", async () => {
    const key = await createApiKey(t, "read");
    const res = await send("GET", "/favicon.ico", bearer(key.key));
    expect(res.status).toBe(404);
    expectContractError(res, "not_found");
  });

  it("failed attempts on encoded and unmatched spellings count toward the per-IP limit (30 per minute)", async () => {
    t.clock!.advance(61_000);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const target = i % 2 === 0 ? "/%61pi/v1/api-keys" : "/nothing-here";
      statuses.push((await rawRequest(port, { method: "GET", target })).status);
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses[30]).toBe(429);
  });

  it.each([["/healthz"], ["/readyz"], ["/api/v1/openapi.json"], ["/docs/"]])(
    "public route %s answers without a key",
    async (target) => {
      const res = await send("GET", target);
      expect(res.status).toBe(200);
    },
  );
});
