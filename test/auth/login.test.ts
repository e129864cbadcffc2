import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, verifications } from "../../src/passwords/index.js";
import { createApiKey, createUser, errorOf, freshIp, uniqueEmail } from "../factories.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";

const PASSWORD = "correct horse battery staple";
const MINUTE = 60_000;

let t: TestApp;
let clock: TestClock;
let hash: string;

beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock, publicUrl: "http://cts.test" });
  hash = await hashPassword(PASSWORD);
});

afterAll(async () => {
  await t?.close();
});

/** A person who can sign in (the invitation flow is another feature's: the hash is set directly). */
async function person(overrides: { role?: "rep" | "admin"; active?: boolean; password?: boolean } = {}) {
  const user = await createUser(t, { email: uniqueEmail("login"), role: overrides.role ?? "rep" });
  const patch = { password_hash: overrides.password === false ? null : hash, active: overrides.active ?? true };
  await t.db.db.updateTable("users").set(patch).where("id", "=", user.id).execute();
  return { ...user, active: patch.active };
}

function login(email: string, password: string, headers: Record<string, string> = {}, ip = freshIp()) {
  return t.app.inject({
    method: "POST",
    url: "/api/v1/auth/login",
    payload: { email, password },
    headers,
    remoteAddress: ip,
  });
}

function cookieOf(setCookie: string | string[] | undefined): string {
  const value = Array.isArray(setCookie) ? setCookie[0]! : setCookie!;
  return value.split(";")[0]!;
}

async function auditRows(action: string) {
  return t.db.db.selectFrom("audit_events").selectAll().where("action", "=", action).orderBy("id").execute();
}

describe("POST /auth/login", () => {
  it("answers the session and sets an HttpOnly, SameSite=Lax, Path=/ cookie (not Secure over http)", async () => {
    const user = await person();
    const res = await login(user.email.toUpperCase(), PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.user).toEqual(user);
    expect(body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.expires_at).toBe(new Date(clock.ms + 480 * MINUTE).toISOString());
    const setCookie = res.headers["set-cookie"] as string;
    const expires = new Date(clock.ms + 168 * 60 * MINUTE).toUTCString();
    expect(setCookie).toMatch(
      new RegExp(`^cts_session=[A-Za-z0-9_-]{43}; Expires=${expires}; HttpOnly; SameSite=Lax; Path=/$`),
    );
    const session = await t.app.inject({
      method: "GET",
      url: "/api/v1/auth/session",
      headers: { cookie: cookieOf(setCookie) },
    });
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json()).toEqual(body);
    const [row] = (await auditRows("session.login")).filter((r) => r.resource_id === user.id);
    expect(row).toMatchObject({ actor_type: "user", actor_id: user.id, actor_name: user.name, resource: "user" });
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
  });

  it("sets Secure when the service's origin is https", async () => {
    const https = await createTestApp({ clock, publicUrl: "https://cts.example.com" });
    try {
      const user = await createUser(https, { email: uniqueEmail() });
      await https.db.db.updateTable("users").set({ password_hash: hash }).where("id", "=", user.id).execute();
      const res = await https.app.inject({
        method: "POST",
        url: "/api/v1/auth/login",
        payload: { email: user.email, password: PASSWORD },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["set-cookie"]).toMatch(/; HttpOnly; SameSite=Lax; Path=\/; Secure$/);
    } finally {
      await https.close();
    }
  });

  it("gives a new session id at every sign-in and ends the one the browser sent", async () => {
    const user = await person();
    const first = cookieOf((await login(user.email, PASSWORD)).headers["set-cookie"]);
    const second = await login(user.email, PASSWORD, { cookie: first });
    expect(second.statusCode).toBe(200);
    const next = cookieOf(second.headers["set-cookie"]);
    expect(next).not.toBe(first);
    const old = await t.app.inject({ method: "GET", url: "/api/v1/auth/session", headers: { cookie: first } });
    expect(old.statusCode).toBe(401);
    const fresh = await t.app.inject({ method: "GET", url: "/api/v1/auth/session", headers: { cookie: next } });
    expect(fresh.statusCode).toBe(200);
    // A cookie the attacker chose (not a live session) is ignored: the answer is a new one.
    const chosen = "cts_session=AttackerChosenAttackerChosenAttackerChosen123";
    const planted = await login(user.email, PASSWORD, { cookie: chosen });
    expect(cookieOf(planted.headers["set-cookie"])).not.toBe(chosen);
  });

  it("answers every kind of failure the same 401 after exactly one password verification", async () => {
    const wrong = await person();
    const inactive = await person({ active: false });
    const noPassword = await person({ password: false });
    const cases: [string, string, string][] = [
      ["unknown email", uniqueEmail("nobody"), PASSWORD],
      ["wrong password", wrong.email, "not the password at all"],
      ["inactive user", inactive.email, PASSWORD],
      ["no password set", noPassword.email, PASSWORD],
    ];
    for (const [kind, email, password] of cases) {
      const before = verifications.count;
      const res = await login(email, password);
      expect(res.statusCode, kind).toBe(401);
      expect(errorOf(res), kind).toEqual({
        code: "unauthorized",
        message: "Email or password is wrong",
        request_id: res.headers["request-id"],
      });
      expect(res.headers["set-cookie"], kind).toBeUndefined();
      expect(verifications.count - before, kind).toBe(1);
    }
  });

  it("audits failures as session.login_failed by an anonymous actor, never with the password", async () => {
    const user = await person();
    const unknown = uniqueEmail("ghost");
    await login(user.email, "a wrong password 1");
    await login(unknown.toUpperCase(), "a wrong password 2");
    const rows = (await auditRows("session.login_failed")).filter(
      (r) => r.resource_id === user.id || r.resource_id === unknown,
    );
    expect(rows.map((r) => [r.actor_type, r.actor_id, r.actor_name, r.resource, r.resource_id, r.after])).toEqual([
      ["user", null, "anonymous", "user", user.id, { email: user.email.toLowerCase(), reason: "wrong_password" }],
      ["user", null, "anonymous", "login", unknown, { email: unknown, reason: "unknown_email" }],
    ]);
    expect(JSON.stringify(rows)).not.toContain("a wrong password");
  });

  it("refuses the 11th attempt after 10 failures for an email, before verifying, until the oldest is 15 min old", async () => {
    const user = await person();
    for (let i = 0; i < 10; i++) {
      if (i === 5) clock.advance(MINUTE);
      expect((await login(user.email, `wrong ${i}`)).statusCode).toBe(401);
    }
    const before = verifications.count;
    const refused = await login(user.email.toUpperCase(), PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused)).toMatchObject({
      code: "rate_limited",
      message: "Too many failed sign-ins for this email (more than 10 in 15 minutes); retry later",
    });
    expect(refused.headers["retry-after"]).toBe(String(14 * 60));
    expect(verifications.count).toBe(before);
    // Another email is not affected.
    expect((await login((await person()).email, PASSWORD)).statusCode).toBe(200);
    clock.advance(14 * MINUTE - 1);
    expect((await login(user.email, PASSWORD)).statusCode).toBe(429);
    clock.advance(1); // the first five failures leave the window
    expect((await login(user.email, PASSWORD)).statusCode).toBe(200);
  });

  it("counts failures only: successes in between never lock the person out", async () => {
    const user = await person();
    for (let i = 0; i < 9; i++) await login(user.email, `wrong ${i}`);
    for (let i = 0; i < 5; i++) expect((await login(user.email, PASSWORD)).statusCode).toBe(200);
    expect((await login(user.email, "wrong again")).statusCode).toBe(401);
    expect((await login(user.email, PASSWORD)).statusCode).toBe(429);
  });

  it("counts failed sign-ins toward the client IP's 30 failed authentications a minute", async () => {
    const ip = freshIp();
    for (let i = 0; i < 30; i++) expect((await login(uniqueEmail("ip"), "x", {}, ip)).statusCode).toBe(401);
    const refused = await login(uniqueEmail("ip"), "x", {}, ip);
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).message).toBe("Too many failed authentication attempts from this address; retry later");
    // Past the limit nothing is verified, a right password included: 429 must not mean "wrong" beside a
    // 200 for "right" (password spraying from one address), and no audit row is written per refusal.
    const user = await person();
    const before = verifications.count;
    const audited = (await auditRows("session.login_failed")).length;
    expect((await login(user.email, PASSWORD, {}, ip)).statusCode).toBe(429);
    expect(verifications.count).toBe(before);
    expect(await auditRows("session.login_failed")).toHaveLength(audited);
  });

  it("holds to 10 failures for an email under a burst of parallel attempts", async () => {
    const user = await person();
    const ips = Array.from({ length: 40 }, () => freshIp());
    const answers = await Promise.all(ips.map((ip, i) => login(user.email, `guess ${i}`, {}, ip)));
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });

  it("never echoes the body: 422 details name fields, malformed JSON no excerpt", async () => {
    const secret = "Sup3r-Secret-Passw0rd";
    const bad = [
      { email: "a@b.c", password: secret, extra: secret },
      { email: secret, password: 42 },
      { email: "a@b.c", password: secret.repeat(60) },
    ];
    for (const payload of bad) {
      const res = await t.app.inject({ method: "POST", url: "/api/v1/auth/login", payload });
      expect(res.statusCode).toBe(422);
      expect(res.body).not.toContain("Passw0rd");
    }
    const malformed = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      headers: { "content-type": "application/json" },
      payload: `{"email":"a@b.c","password": ${secret}}`,
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).not.toContain("Passw0rd");
  });

  it("refuses a sign-in posted from another origin (login CSRF): 403, no session, no verification", async () => {
    const user = await person();
    const before = verifications.count;
    for (const origin of ["http://evil.test", "null", "https://cts.test"]) {
      const res = await login(user.email, PASSWORD, { origin });
      expect(res.statusCode, origin).toBe(403);
      expect(errorOf(res)).toMatchObject({ code: "forbidden", message: "CSRF check failed" });
      expect(res.headers["set-cookie"]).toBeUndefined();
    }
    expect(verifications.count).toBe(before);
    const same = await login(user.email, PASSWORD, { origin: "http://cts.test" });
    expect(same.statusCode, same.body).toBe(200);
  });

  it("logs the sign-in request (no key, no user) like any other", async () => {
    const user = await person();
    const res = await login(user.email, PASSWORD);
    await t.requestLog.flush();
    const row = await t.db.db
      .selectFrom("request_logs")
      .selectAll()
      .where("id", "=", res.headers["request-id"] as string)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ method: "POST", path: "/api/v1/auth/login", status: 200, key_id: null });
  });
});

describe("GET /auth/session and POST /auth/logout", () => {
  it("401 without a session; 403 for an API key, which has none", async () => {
    const none = await t.app.inject({ method: "GET", url: "/api/v1/auth/session", remoteAddress: freshIp() });
    expect(none.statusCode).toBe(401);
    const { key } = await createApiKey(t, "admin");
    for (const [method, url] of [
      ["GET", "/api/v1/auth/session"],
      ["POST", "/api/v1/auth/logout"],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(key) });
      expect(res.statusCode).toBe(403);
      expect(errorOf(res).message).toBe(
        "This endpoint is for a signed-in person's session; an API key has no session (send no Authorization header)",
      );
    }
  });

  it("logout ends this session only, clears the cookie, and is audited; it needs the CSRF token", async () => {
    const user = await person();
    const a = await login(user.email, PASSWORD);
    const b = await login(user.email, PASSWORD);
    const cookie = cookieOf(a.headers["set-cookie"]);
    const noToken = await t.app.inject({ method: "POST", url: "/api/v1/auth/logout", headers: { cookie } });
    expect(noToken.statusCode).toBe(403);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/auth/logout",
      headers: { cookie, "x-csrf-token": a.json().csrf_token },
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe("");
    expect(res.headers["set-cookie"]).toBe(
      "cts_session=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax; Path=/",
    );
    const after = await t.app.inject({ method: "GET", url: "/api/v1/auth/session", headers: { cookie } });
    expect(after.statusCode).toBe(401);
    const other = { cookie: cookieOf(b.headers["set-cookie"]) };
    expect((await t.app.inject({ method: "GET", url: "/api/v1/auth/session", headers: other })).statusCode).toBe(200);
    const rows = (await auditRows("session.logout")).filter((r) => r.resource_id === user.id);
    expect(rows.map((r) => [r.actor_type, r.actor_id, r.request_id])).toEqual([
      ["user", user.id, res.headers["request-id"]],
    ]);
  });
});
