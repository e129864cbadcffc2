import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "../../src/context.js";
import { craftKey, createApiKey, createUser, errorOf, freshIp, unknownId } from "../factories.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { describeRouteCases, expectRowPerOperation, operations } from "../route-case.js";
import { prepareRoutes, ROUTES } from "../route-rows.js";

/**
 * The security table (ARCHITECTURE.md "Tests through the real stack"). Two parts:
 * - every operation the OpenAPI document lists under /api/v1 gets the key checks (401s) with no row;
 * - each route has a row in ROUTES (test/route-rows.ts) for scope (403), unknown id (404), validation (422) and success.
 *   A new route adds one row; the coverage test fails, naming the route, until it does.
 */

const t: TestApp = await createTestApp({ clock: new TestClock() });
const keys = {} as Record<Scope | "revoked" | "expired", string>;

/**
 * The route table's rows spend a few requests each and a key may make 100 a minute (API.md §3): the rows
 * take their keys from a pool, a fresh key every 90 requests, so no row meets the limit however many
 * routes there are.
 */
const POOL_SIZE = 12;
const pool = { read: [] as string[], write: [] as string[], admin: [] as string[] };
const used = { read: 0, write: 0, admin: 0 };
const pooledKey = (scope: Scope): string => pool[scope][Math.floor(used[scope]++ / 90) % POOL_SIZE]!;

/** Every operation of the OpenAPI document under /api/v1 that a key may call (sign-in and sessions: test/auth). */
const DOCUMENTED = (await operations(t)).filter((op) => op.access === "key");

beforeAll(async () => {
  await prepareRoutes(t);
  for (const scope of ["read", "write", "admin"] as const) {
    keys[scope] = (await createApiKey(t, scope)).key;
    for (let i = 0; i < POOL_SIZE; i++) pool[scope].push((await createApiKey(t, scope)).key);
  }
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
  await t.close();
});

describe("the table covers every /api/v1 route", () => {
  it("has one row per operation in the OpenAPI document", () => {
    // Session-only operations (a key gets 403) have no row: their checks run with sessions in test/auth/.
    expectRowPerOperation(ROUTES, DOCUMENTED);
  });
});

describe.each(DOCUMENTED)("$method $path: key problems → 401", (route) => {
  const send = (headers: Record<string, string>) =>
    t.app.inject({
      method: route.method,
      url: route.path.replace(/\{\w+\}/g, "x"),
      headers,
      remoteAddress: freshIp(),
      ...(route.method === "GET" || route.method === "DELETE" ? {} : { payload: {} }),
    });

  it("no key → 401 with WWW-Authenticate: Bearer", async () => {
    const res = await send({});
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
    const res = await send({ authorization: header });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe("unauthorized");
    expect(errorOf(res).message).toMatch(/Malformed/);
  });

  it("a key of another environment → 401 naming the environment", async () => {
    const res = await send(bearer(craftKey("live")));
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe("unauthorized");
    expect(errorOf(res).message).toContain("live");
    expect(errorOf(res).message).toContain("test environment");
  });

  it("an unknown key of this environment → 401", async () => {
    const res = await send(bearer(craftKey("test")));
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).message).toBe("Unknown API key");
  });

  it("a revoked key → 401", async () => {
    const res = await send(bearer(keys.revoked));
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe("unauthorized");
    expect(errorOf(res).message).toMatch(/revoked/);
  });

  it("an expired key → 401", async () => {
    const res = await send(bearer(keys.expired));
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe("unauthorized");
    expect(errorOf(res).message).toMatch(/expired at 2026-11-22T10:00:01.000Z/);
  });
});

describeRouteCases(t, ROUTES, pooledKey);

describe("the order of checks (API.md §2)", () => {
  // The route table's rows spent the keys' 100 requests of this minute.
  beforeAll(() => t.clock!.advance(61_000));

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
    // A key of its own: the route table's rows above spend the shared admin key's 100 requests a minute.
    const res = await t.app.inject({ method, url, headers: bearer((await createApiKey(t, "admin")).key) });
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
