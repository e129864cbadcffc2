import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, parseErrorBody, unique, uniqueEmail } from "../factories.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { listenPort, type RawResponse, rawRequest } from "../raw-http.js";

/**
 * #13.4: a header that may appear once (Authorization, Idempotency-Key), sent twice, is ambiguous —
 * Node keeps the first Authorization and joins Idempotency-Keys with a comma — so it is refused with
 * 400 bad_request and nothing happens. Raw sockets: `inject` would merge the lines before the app.
 */

const t: TestApp = await createTestApp({ clock: new TestClock() });
let port = 0;
let admin = "";

/**
 * Every write route (POST, PUT, PATCH) of the OpenAPI document that takes a key, and /mcp. Public routes
 * read no Authorization and keep no Idempotency-Key; session-only ones refuse keys (403) before either.
 */
type Operation = { security?: Record<string, unknown>[]; requestBody?: { content: Record<string, unknown> } };
const WRITES: { method: string; path: string; mediaType: string }[] = await (async () => {
  const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
  const doc = res.json() as { paths: Record<string, Record<string, Operation>> };
  const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op.security === undefined || op.security.some((s) => "bearerAuth" in s))
      .map(([m, op]) => ({
        method: m.toUpperCase(),
        path: path.replace(/\{\w+\}/g, "x"),
        mediaType: Object.keys(op.requestBody?.content ?? {})[0] ?? "application/json",
      })),
  );
  return [
    ...documented.filter((r) => ["POST", "PUT", "PATCH"].includes(r.method)),
    { method: "POST", path: "/mcp", mediaType: "application/json" },
  ];
})();

/** A body of the route's own media type, so the header under test is the request's only fault. */
const BODY_OF: Record<string, string> = { "application/json": "{}", "text/csv": "external_id\r\n" };

function send(
  method: string,
  target: string,
  headers: Record<string, string | string[]>,
  body?: string,
  mediaType = "application/json",
) {
  t.clock!.advance(61_000); // a fresh rate-limit window per request
  const sent = body ?? BODY_OF[mediaType];
  if (sent === undefined) throw new Error(`no body of ${mediaType} for ${method} ${target}`);
  return rawRequest(port, {
    method,
    target,
    headers: { ...headers, "content-type": mediaType },
    ...(method === "GET" ? {} : { body: sent }),
  });
}

function expectBadRequest(res: RawResponse, header: string): void {
  expect(res.status, res.body).toBe(400);
  expect(parseErrorBody(JSON.parse(res.body))).toEqual({
    code: "bad_request",
    message: `The ${header} header was sent 2 times; send it once`,
    request_id: res.headers["request-id"],
  });
}

beforeAll(async () => {
  port = await listenPort(t);
  admin = (await createApiKey(t, "admin")).key;
});

afterAll(async () => {
  await t.close();
});

describe("#13.4 headers that may appear once", () => {
  it("covers the write routes", () => {
    expect(WRITES.length).toBeGreaterThan(20);
  });

  describe.each([
    ["the same key twice", () => [`Bearer ${admin}`, `Bearer ${admin}`]],
    ["a valid key, then another", () => [`Bearer ${admin}`, "Bearer cts_test_other"]],
    ["an invalid key, then a valid one", () => ["Bearer cts_test_other", `Bearer ${admin}`]],
  ])("two Authorization headers (%s) → 400 bad_request", (_label, values) => {
    const routes: [string, string, string][] = [
      ["GET", "/api/v1/users", "application/json"],
      ["GET", "/api/v1/nothing-here", "application/json"],
      ...WRITES.map((r): [string, string, string] => [r.method, r.path, r.mediaType]),
    ];
    it.each(routes)("%s %s", async (method, path, mediaType) => {
      expectBadRequest(await send(method, path, { authorization: values() }, undefined, mediaType), "Authorization");
    });
  });

  it("the header name's case does not matter: Authorization and authorization → 400", async () => {
    const res = await rawRequest(port, {
      method: "GET",
      target: "/api/v1/users",
      rawHeaders: ["Host", "localhost", "Authorization", `Bearer ${admin}`, "authorization", `Bearer ${admin}`],
    });
    expectBadRequest(res, "Authorization");
  });

  it.each(WRITES)(
    "two Idempotency-Key headers on $method $path → 400 bad_request",
    async ({ method, path, mediaType }) => {
      const headers = { authorization: `Bearer ${admin}`, "idempotency-key": ["k-1", "k-2"] };
      const res = await send(method, path, headers, undefined, mediaType);
      expectBadRequest(res, "Idempotency-Key");
    },
  );

  it("nothing is created, and neither key is recorded: each works alone afterwards", async () => {
    const email = uniqueEmail("twice");
    const body = JSON.stringify({ name: unique("Twice"), email });
    const keys = [unique("idem"), unique("idem")];
    const twice = await send(
      "POST",
      "/api/v1/users",
      { authorization: `Bearer ${admin}`, "idempotency-key": keys },
      body,
    );
    expectBadRequest(twice, "Idempotency-Key");
    const users = await t.db.db.selectFrom("users").select("id").where("email", "=", email).execute();
    expect(users).toEqual([]);
    const once = await send(
      "POST",
      "/api/v1/users",
      { authorization: `Bearer ${admin}`, "idempotency-key": keys[0]! },
      body,
    );
    expect(once.status, once.body).toBe(201);
    expect(once.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("one Authorization and one Idempotency-Key (with a comma inside) are fine", async () => {
    const body = JSON.stringify({ name: unique("Once"), email: uniqueEmail("once") });
    const res = await send(
      "POST",
      "/api/v1/users",
      { authorization: `Bearer ${admin}`, "idempotency-key": "a, b" },
      body,
    );
    expect(res.status, res.body).toBe(201);
  });
});
