import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { craftKey, createApiKey, createUser, errorOf, freshIp, uniqueEmail } from "../factories.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";
import { signedInAs } from "../sessions.js";

const ORIGIN = "http://cts.test";
const MINUTE = 60_000;

let t: TestApp;
let clock: TestClock;

beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock, publicUrl: ORIGIN });
});

afterAll(async () => {
  await t?.close();
});

function send(method: string, url: string, headers: Record<string, string>, payload?: unknown) {
  return t.app.inject({
    method: method as "GET",
    url: `/api/v1${url}`,
    headers,
    remoteAddress: freshIp(),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

function expectError(res: LightMyRequestResponse, status: number, code: string, message?: string) {
  expect(res.statusCode, res.body).toBe(status);
  const error = errorOf(res);
  expect(error.code).toBe(code);
  if (message !== undefined) expect(error.message).toBe(message);
}

const ENDED = "Your session has ended (signed out, expired or revoked): sign in again at POST /api/v1/auth/login";

describe("a session authenticates /api/v1 requests as its person", () => {
  it("signs in a rep for a read, with the per-user rate-limit headers", async () => {
    const s = await signedInAs(t, { role: "rep" });
    const res = await send("GET", `/users/${s.user.id}`, s.headers("GET"));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().id).toBe(s.user.id);
    expect(res.headers["ratelimit-policy"]).toBe('"per-user";q=300;w=60');
    expect(res.headers.ratelimit).toBe('"per-user";r=299;t=0');
  });

  it("ignores cookies on a request with an Authorization header: the key decides", async () => {
    const s = await signedInAs(t, { role: "admin" });
    const bad = await send("GET", `/users/${s.user.id}`, { ...s.headers("GET"), ...bearer(craftKey("test")) });
    expectError(bad, 401, "unauthorized", "Unknown API key");
    const { key } = await createApiKey(t, "read");
    const keyed = await send("GET", `/users/${s.user.id}`, { ...s.headers("GET"), ...bearer(key) });
    expect(keyed.statusCode).toBe(200);
    expect(keyed.headers["ratelimit-policy"]).toBe('"per-key";q=100;w=60');
  });

  it("answers no credentials at all as before: 401 with WWW-Authenticate: Bearer", async () => {
    const res = await send("GET", "/users", {});
    expectError(res, 401, "unauthorized", "Missing API key: send Authorization: Bearer <key>");
    expect(res.headers["www-authenticate"]).toBe('Bearer realm="cts"');
  });

  it("refuses an unknown, malformed or doubled session cookie with 401 and a sign-in-again message", async () => {
    const s = await signedInAs(t);
    const cookies = [
      "cts_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      "cts_session=short",
      `${s.cookie}; ${s.cookie}`,
      "theme=dark; cts_session=",
    ];
    for (const cookie of cookies) {
      const res = await send("GET", "/users", { cookie });
      expectError(res, 401, "unauthorized", ENDED);
      expect(res.headers["www-authenticate"]).toBe('Bearer realm="cts"');
    }
  });

  it("counts bad session cookies as failed authentications of the client IP (31st → 429)", async () => {
    const ip = freshIp();
    const cookie = "cts_session=BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await t.app.inject({ method: "GET", url: "/api/v1/users", headers: { cookie }, remoteAddress: ip });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
    // A valid session from that address is never held back by the IP limiter.
    const s = await signedInAs(t);
    const ok = await t.app.inject({ method: "GET", url: "/api/v1/users", headers: s.headers(), remoteAddress: ip });
    expect(ok.statusCode).toBe(200);
  });
});

describe("the console's session probe (GET /auth/session with nothing presented)", () => {
  // Every signed-out page load of the console asks GET /auth/session with no cookie: counting those as
  // failed authentications let 30 page loads a minute from one address (an office behind one NAT) lock
  // everyone there out of signing in. A probe presents nothing to guess, so it is answered, not counted.
  it("answers 401 without counting it; a bad cookie or key on it, or no credentials elsewhere, still count", async () => {
    const ip = freshIp();
    const get = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: "GET", url: `/api/v1${url}`, headers, remoteAddress: ip });
    const probes: number[] = [];
    for (let i = 0; i < 40; i++) probes.push((await get("/auth/session")).statusCode);
    expect(probes).toEqual(Array(40).fill(401));

    for (let i = 0; i < 10; i++)
      expect(
        (await get("/auth/session", { cookie: "cts_session=BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB" })).statusCode,
      ).toBe(401);
    for (let i = 0; i < 10; i++)
      expect((await get("/auth/session", { authorization: `Bearer ${craftKey("test")}` })).statusCode).toBe(401);
    for (let i = 0; i < 10; i++) expect((await get("/users")).statusCode).toBe(401);
    expectError(await get("/users"), 429, "rate_limited");
    // Over the limit, the probe still answers 401 (the console shows its sign-in page, whose sign-in then
    // says 429), and it is the probe alone that is exempt.
    expectError(await get("/auth/session"), 401, "unauthorized");
    expectError(await get("/auth/session", { authorization: `Bearer ${craftKey("test")}` }), 429, "rate_limited");
  });
});

describe("CSRF (API.md §11)", () => {
  const body = () => ({ name: "Csrf Person", email: uniqueEmail("csrf") });

  it("refuses an unsafe method without the token, with a wrong one, or from a foreign Origin", async () => {
    const s = await signedInAs(t, { role: "admin" });
    const missing = await send("POST", "/users", { cookie: s.cookie }, body());
    expectError(missing, 403, "forbidden", "CSRF check failed");
    const wrong = await send("POST", "/users", { cookie: s.cookie, "x-csrf-token": `${s.csrfToken}x` }, body());
    expectError(wrong, 403, "forbidden", "CSRF check failed");
    const other = await signedInAs(t, { role: "admin" });
    const stolen = await send("POST", "/users", { cookie: s.cookie, "x-csrf-token": other.csrfToken }, body());
    expectError(stolen, 403, "forbidden", "CSRF check failed");
    const foreign = await send("POST", "/users", { ...s.headers("POST"), origin: "https://evil.example" }, body());
    expectError(foreign, 403, "forbidden", "CSRF check failed");
    const nullOrigin = await send("POST", "/users", { ...s.headers("POST"), origin: "null" }, body());
    expectError(nullOrigin, 403, "forbidden", "CSRF check failed");
    for (const method of ["PATCH", "DELETE", "PUT"]) {
      const res = await send(method, `/users/${s.user.id}`, { cookie: s.cookie }, { name: "x" });
      expectError(res, 403, "forbidden", "CSRF check failed");
    }
  });

  it("passes the right token, with the service's own Origin or none", async () => {
    const s = await signedInAs(t, { role: "admin" });
    const same = await send("POST", "/users", { ...s.headers("POST"), origin: ORIGIN }, body());
    expect(same.statusCode, same.body).toBe(201);
    const none = await send("POST", "/users", s.headers("POST"), body());
    expect(none.statusCode, none.body).toBe(201);
  });

  it("asks nothing of GET, nor of bearer requests", async () => {
    const s = await signedInAs(t, { role: "admin" });
    const get = await send("GET", "/users", { cookie: s.cookie, origin: "https://evil.example" });
    expect(get.statusCode).toBe(200);
    const { key } = await createApiKey(t, "write");
    const keyed = await send("POST", "/users", { ...bearer(key), origin: "https://evil.example" }, body());
    expect(keyed.statusCode, keyed.body).toBe(201);
  });

  it("runs after the rate limit and before the role check (401 → 429 → 403 CSRF → 403 role)", async () => {
    const rep = await signedInAs(t, { role: "rep" });
    const noToken = await send("POST", "/users", { cookie: rep.cookie }, body());
    expectError(noToken, 403, "forbidden", "CSRF check failed");
    expect(noToken.headers.ratelimit).toBe('"per-user";r=299;t=0');
    const withToken = await send("POST", "/users", rep.headers("POST"), body());
    expectError(withToken, 403, "forbidden", "This action needs the admin role; you are rep");
    // Before validation: an invalid body still gets the 403.
    const invalid = await send("POST", "/users", rep.headers("POST"), { nope: 1 });
    expectError(invalid, 403, "forbidden", "This action needs the admin role; you are rep");
  });
});

describe("per-user rate limit: 300 per rolling 60 s", () => {
  it("lets 300 through, refuses the 301st with Retry-After, and counts per user, not per session", async () => {
    const user = await createUser(t);
    const a = await signedInAs(t, user);
    const b = await signedInAs(t, user);
    const statuses: number[] = [];
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 300; i++) {
      last = await send("GET", `/users/${user.id}`, (i % 2 === 0 ? a : b).headers());
      statuses.push(last.statusCode);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(last!.headers.ratelimit).toBe('"per-user";r=0;t=60');
    const refused = await send("GET", `/users/${user.id}`, a.headers());
    expectError(refused, 429, "rate_limited", "Rate limit of 300 requests per minute exceeded for this user");
    expect(refused.headers["retry-after"]).toBe("60");
    expect(refused.headers["ratelimit-policy"]).toBe('"per-user";q=300;w=60');
    // Another person is not affected; and the window rolls.
    const other = await signedInAs(t);
    expect((await send("GET", "/users", other.headers())).statusCode).toBe(200);
    clock.advance(MINUTE);
    expect((await send("GET", `/users/${user.id}`, a.headers())).statusCode).toBe(200);
  });
});

describe("timeouts (idle 480 min, absolute 168 h by default)", () => {
  it("ends a session left idle for the idle timeout, and keeps one in use", async () => {
    const s = await signedInAs(t);
    clock.advance(479 * MINUTE);
    expect((await send("GET", "/users", s.headers())).statusCode).toBe(200);
    clock.advance(479 * MINUTE);
    expect((await send("GET", "/users", s.headers())).statusCode).toBe(200);
    clock.advance(480 * MINUTE);
    expectError(await send("GET", "/users", s.headers()), 401, "unauthorized", ENDED);
  });

  it("ends a session at its absolute timeout however busy it is", async () => {
    const s = await signedInAs(t);
    for (let hours = 7; hours < 168; hours += 7) {
      clock.advance(7 * 60 * MINUTE);
      expect((await send("GET", "/users", s.headers())).statusCode, `at ${hours} h`).toBe(200);
    }
    clock.advance(7 * 60 * MINUTE); // exactly 168 h after sign-in
    expectError(await send("GET", "/users", s.headers()), 401, "unauthorized", ENDED);
  });
});

describe("request log and audit name the person", () => {
  it("logs user_id (key_id null) on session requests; GET /request-logs filters by user_id", async () => {
    const s = await signedInAs(t);
    const res = await send("GET", `/users/${s.user.id}`, s.headers());
    const denied = await send("POST", "/users", { cookie: s.cookie }, {});
    expect(denied.statusCode).toBe(403);
    await t.requestLog.flush();
    const { key } = await createApiKey(t, "admin");
    const logs = await send("GET", `/request-logs?user_id=${s.user.id}`, bearer(key));
    expect(logs.statusCode, logs.body).toBe(200);
    const rows = logs.json().data as { id: string; user_id: string | null; key_id: string | null; status: number }[];
    expect(rows.map((r) => [r.id, r.user_id, r.key_id, r.status])).toEqual([
      [denied.headers["request-id"], s.user.id, null, 403],
      [res.headers["request-id"], s.user.id, null, 200],
    ]);
    const keyed = await send("GET", `/request-logs?key_id=${encodeURIComponent("key_x")}`, bearer(key));
    expect(keyed.json().data).toEqual([]);
  });

  it("audits a session's writes with the actor {type: user, id, name}, filterable by the user id", async () => {
    const s = await signedInAs(t, { role: "admin" });
    const created = await send("POST", "/users", s.headers("POST"), { name: "Made By Session", email: uniqueEmail() });
    expect(created.statusCode, created.body).toBe(201);
    const { key } = await createApiKey(t, "admin");
    const events = await send("GET", `/audit-events?actor=${s.user.id}`, bearer(key));
    expect(events.statusCode, events.body).toBe(200);
    const data = events.json().data as { action: string; actor: unknown; resource_id: string }[];
    expect(data.map((e) => [e.action, e.resource_id, e.actor])).toEqual([
      ["user.create", created.json().id, { type: "user", id: s.user.id, name: s.user.name }],
    ]);
  });
});
