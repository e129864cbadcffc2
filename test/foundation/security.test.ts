import type { HTTPMethods } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "../../src/context.js";
import {
  craftKey,
  createApiKey,
  createJob,
  createUser,
  errorOf,
  freshIp,
  unique,
  uniqueEmail,
  unknownId,
} from "../factories.js";
import { bearer, createTestApp, TestClock, type TestApp } from "../harness.js";

/**
 * The security table (ARCHITECTURE.md "Tests through the real stack"): every /api/v1 route gets the
 * same checks. A new route adds one row; the coverage test below fails until it does.
 */
interface RouteCase {
  method: HTTPMethods;
  /** As the OpenAPI document writes it: `{id}` for the record id. */
  path: string;
  scope: Scope;
  /** Status of a successful call with a key of exactly `scope`. */
  ok: number;
  /** For `{id}` routes: creates a real record and returns its id. */
  record?: (t: TestApp) => Promise<string>;
  /** Prefix of ids of this resource, for the unknown-id check. */
  idPrefix?: string;
  /** A valid body (a function when values must be unique). */
  body?: () => unknown;
  /** Input that fails validation, and the `details[].param` that must name the problem. */
  invalid: { body?: unknown; query?: string; id?: string; param: string };
}

const ROUTES: RouteCase[] = [
  {
    method: "GET",
    path: "/api/v1/api-keys",
    scope: "admin",
    ok: 200,
    invalid: { query: "per_page=0", param: "per_page" },
  },
  {
    method: "POST",
    path: "/api/v1/api-keys",
    scope: "admin",
    ok: 201,
    body: () => ({ name: unique("key"), scope: "read" }),
    invalid: { body: { name: "k", scope: "root" }, param: "scope" },
  },
  {
    method: "GET",
    path: "/api/v1/api-keys/{id}",
    scope: "admin",
    ok: 200,
    record: async (t) => (await createApiKey(t, "read")).id,
    idPrefix: "key",
    invalid: { id: "k".repeat(101), param: "id" },
  },
  {
    method: "POST",
    path: "/api/v1/api-keys/{id}/revoke",
    scope: "admin",
    ok: 200,
    record: async (t) => (await createApiKey(t, "read")).id,
    idPrefix: "key",
    invalid: { body: { reason: "leaked" }, param: "reason" },
  },
  {
    method: "POST",
    path: "/api/v1/api-keys/{id}/rotate",
    scope: "admin",
    ok: 200,
    record: async (t) => (await createApiKey(t, "read")).id,
    idPrefix: "key",
    body: () => ({ grace_period_seconds: 60 }),
    invalid: { body: { grace_period_seconds: 86_401 }, param: "grace_period_seconds" },
  },
  {
    method: "GET",
    path: "/api/v1/users",
    scope: "read",
    ok: 200,
    invalid: { query: "active=yes", param: "active" },
  },
  {
    method: "GET",
    path: "/api/v1/users/{id}",
    scope: "read",
    ok: 200,
    record: async (t) => (await createUser(t)).id,
    idPrefix: "usr",
    invalid: { id: "u".repeat(101), param: "id" },
  },
  {
    method: "POST",
    path: "/api/v1/users",
    scope: "write",
    ok: 201,
    body: () => ({ name: "Ada Lovelace", email: uniqueEmail("ada") }),
    invalid: { body: { name: "Ada", email: "not-an-email" }, param: "email" },
  },
  {
    method: "PATCH",
    path: "/api/v1/users/{id}",
    scope: "write",
    ok: 200,
    record: async (t) => (await createUser(t)).id,
    idPrefix: "usr",
    body: () => ({ name: unique("Renamed") }),
    invalid: { body: { active: "yes" }, param: "active" },
  },
  {
    method: "GET",
    path: "/api/v1/jobs/{id}",
    scope: "read",
    ok: 200,
    record: async (t) => (await createJob(t)).id,
    idPrefix: "job",
    invalid: { id: "j".repeat(101), param: "id" },
  },
  {
    method: "GET",
    path: "/api/v1/request-logs",
    scope: "admin",
    ok: 200,
    invalid: { query: "status=42", param: "status" },
  },
];

const BELOW: Record<Scope, Scope | undefined> = { read: undefined, write: "read", admin: "write" };

let t: TestApp;
const keys = {} as Record<Scope | "revoked" | "expired", string>;

beforeAll(async () => {
  t = await createTestApp({ clock: new TestClock() });
  for (const scope of ["read", "write", "admin"] as const) keys[scope] = (await createApiKey(t, scope)).key;
  const revoked = await createApiKey(t, "admin");
  const res = await t.app.inject({
    method: "POST",
    url: `/api/v1/api-keys/${revoked.id}/revoke`,
    headers: bearer(keys.admin),
  });
  expect(res.statusCode).toBe(200);
  keys.revoked = revoked.key;
  const soon = new Date(t.clock!.ms + 1000).toISOString();
  keys.expired = (await createApiKey(t, "admin", { expires_at: soon })).key;
  t.clock!.advance(2000);
});

afterAll(async () => {
  await t?.close();
});

/** One request to a row's route; `id` replaces `{id}`. */
async function call(
  t: TestApp,
  route: RouteCase,
  options: { id?: string; headers?: Record<string, string>; body?: unknown; query?: string },
) {
  const id = options.id ?? (route.record ? await route.record(t) : undefined);
  const path = route.path.replace("{id}", id ?? "");
  const body = "body" in options ? options.body : route.body?.();
  return t.app.inject({
    method: route.method,
    url: options.query ? `${path}?${options.query}` : path,
    headers: options.headers ?? {},
    remoteAddress: freshIp(),
    ...(body !== undefined ? { payload: body as object } : {}),
  });
}

describe("the table covers every /api/v1 route", () => {
  it("has one row per operation in the OpenAPI document", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    const doc = res.json() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith("/api/v1/"))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(ROUTES.map((r) => `${r.method} ${r.path}`).sort()).toEqual(documented);
  });
});

describe.each(ROUTES)("$method $path", (route) => {
  it(`succeeds with a ${route.scope} key (${route.ok})`, async () => {
    const res = await call(t, route, { headers: bearer(keys[route.scope]) });
    expect(res.statusCode, res.body).toBe(route.ok);
  });

  it("no key → 401 with WWW-Authenticate: Bearer", async () => {
    const res = await call(t, route, {});
    expect(res.statusCode).toBe(401);
    expect(res.headers["www-authenticate"]).toMatch(/^Bearer\b/);
    expect(errorOf(res).code).toBe("unauthorized");
    expect(errorOf(res).message).toMatch(/Missing API key/);
  });

  it.each([
    ["another scheme", `Basic ${Buffer.from("a:b").toString("base64")}`],
    ["Bearer without a key", "Bearer"],
    ["a key that is not ours", "Bearer sk_live_123"],
    ["two tokens", `Bearer ${craftKey("test")} extra`],
  ])("malformed Authorization (%s) → 401", async (_label, header) => {
    const res = await call(t, route, { headers: { authorization: header } });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe("unauthorized");
    expect(errorOf(res).message).toMatch(/Malformed/);
  });

  it("a key of another environment → 401 naming the environment", async () => {
    const res = await call(t, route, { headers: bearer(craftKey("live")) });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe("unauthorized");
    expect(errorOf(res).message).toContain("live");
    expect(errorOf(res).message).toContain("test environment");
  });

  it("an unknown key of this environment → 401", async () => {
    const res = await call(t, route, { headers: bearer(craftKey("test")) });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).message).toBe("Unknown API key");
  });

  it("a revoked key → 401", async () => {
    const res = await call(t, route, { headers: bearer(keys.revoked) });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe("unauthorized");
    expect(errorOf(res).message).toMatch(/revoked/);
  });

  it("an expired key → 401", async () => {
    const res = await call(t, route, { headers: bearer(keys.expired) });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe("unauthorized");
    expect(errorOf(res).message).toMatch(/expired at 2026-11-22T10:00:01.000Z/);
  });

  const below = BELOW[route.scope];
  if (below) {
    it(`a ${below} key → 403 naming the ${route.scope} scope`, async () => {
      const res = await call(t, route, { headers: bearer(keys[below]) });
      expect(res.statusCode).toBe(403);
      expect(errorOf(res).code).toBe("forbidden");
      expect(errorOf(res).message).toContain(`needs the ${route.scope} scope`);
    });
  }

  if (route.record) {
    it("an unknown id → 404", async () => {
      const id = unknownId(route.idPrefix!);
      const res = await call(t, route, { id, headers: bearer(keys[route.scope]) });
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).code).toBe("not_found");
      expect(errorOf(res).message).toContain(id);
    });
  }

  it(`invalid input → 422 validation_error naming ${route.invalid.param}`, async () => {
    const { invalid } = route;
    const res = await call(t, route, {
      headers: bearer(keys[route.scope]),
      ...(invalid.id ? { id: invalid.id } : {}),
      ...(invalid.query ? { query: invalid.query } : {}),
      ...("body" in invalid ? { body: invalid.body } : {}),
    });
    expect(res.statusCode, res.body).toBe(422);
    const error = errorOf(res);
    expect(error.code).toBe("validation_error");
    expect(error.details?.map((d) => d.param)).toContain(invalid.param);
  });
});

describe("the order of checks (API.md §2)", () => {
  it("no key on an unknown route → 401, not 404", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/nothing-here", remoteAddress: freshIp() });
    expect(res.statusCode).toBe(401);
    expect(res.headers["www-authenticate"]).toMatch(/^Bearer\b/);
  });

  it("no key and a wrong method → 401, not 405", async () => {
    const res = await t.app.inject({ method: "DELETE", url: "/api/v1/users", remoteAddress: freshIp() });
    expect(res.statusCode).toBe(401);
  });

  it("a valid key on an unknown route → 404 not_found", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/nothing-here", headers: bearer(keys.read) });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).code).toBe("not_found");
    expect(errorOf(res).message).toBe("No route GET /api/v1/nothing-here");
  });

  it.each([
    ["DELETE", "/api/v1/users", "GET, POST"],
    ["PUT", "/api/v1/users/usr_1", "GET, PATCH"],
    ["DELETE", "/api/v1/api-keys/key_1", "GET"],
    ["GET", "/api/v1/api-keys/key_1/revoke", "POST"],
    ["POST", "/api/v1/request-logs", "GET"],
  ] as const)("%s %s → 405 with Allow: %s", async (method, url, allow) => {
    const res = await t.app.inject({ method, url, headers: bearer(keys.admin) });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(errorOf(res).code).toBe("method_not_allowed");
  });

  it("a read key posting an invalid body → 403 before 422", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/users",
      headers: bearer(keys.read),
      payload: { nonsense: true },
    });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe("forbidden");
  });

  it("a write key posting malformed JSON to an admin route → 403 before 400", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/api-keys",
      headers: { ...bearer(keys.write), "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(403);
  });

  it("a read key on an unknown record of a write route → 403 before 404", async () => {
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/users/${unknownId("usr")}`,
      headers: bearer(keys.read),
      payload: { name: "X" },
    });
    expect(res.statusCode).toBe(403);
  });

  it("an invalid body for an unknown record → 422 before 404", async () => {
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/users/${unknownId("usr")}`,
      headers: bearer(keys.write),
      payload: { role: "emperor" },
    });
    expect(res.statusCode).toBe(422);
  });

  it("an unknown record is 404 before a conflict could be checked", async () => {
    const taken = await createUser(t);
    const res = await t.app.inject({
      method: "PATCH",
      url: `/api/v1/users/${unknownId("usr")}`,
      headers: bearer(keys.write),
      payload: { email: taken.email },
    });
    expect(res.statusCode).toBe(404);
  });
});
