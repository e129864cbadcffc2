import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createKey } from "../../src/api-keys/index.js";
import { type BuiltApp, buildApp } from "../../src/app/build.js";
import { makeCtx, OWNER } from "../../src/context.js";
import { CreateUserBody, createUser, type User, updateUser } from "../../src/users/index.js";
import { uniqueEmail } from "../factories.js";
import { openTestDb, TEST_ENV, TEST_SECRET_KEY, TestClock, type TestDb } from "../harness.js";
import { browseProvider, CookieJar, startProvider, type TestProvider } from "./oidc-fixture.js";

const ORIGIN = "http://app.test";
const CALLBACK = `${ORIGIN}/api/v1/auth/oidc/callback`;

let provider: TestProvider;
let db: TestDb;
let built: BuiltApp;
const clock = new TestClock();

beforeAll(async () => {
  provider = await startProvider(CALLBACK);
  db = await openTestDb();
  built = await buildApp({
    db: db.db,
    pglite: db.pglite,
    env: TEST_ENV,
    publicUrl: ORIGIN,
    clock: clock.now,
    oidc: {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      secretKey: TEST_SECRET_KEY,
    },
  });
});

afterAll(async () => {
  await built?.app.close();
  await db?.dispose();
  await provider?.close();
});

const ownerCtx = () => makeCtx(db.db, TEST_ENV, OWNER, null, clock.now());

/** A user here and the same person at the provider (by `sub`), whose email the provider may not have verified. */
async function person(options: { verified?: boolean; active?: boolean; here?: boolean } = {}) {
  const email = uniqueEmail("oidc");
  const sub = `sub-${email}`;
  provider.accounts.set(sub, { email: email.toUpperCase(), email_verified: options.verified ?? true });
  let user: User | undefined;
  if (options.here ?? true) {
    user = await createUser(ownerCtx(), CreateUserBody.parse({ name: `Person ${email}`, email }));
    if (options.active === false) user = await updateUser(ownerCtx(), user.id, { active: false });
  }
  provider.next = { login: sub };
  return { email, sub, user };
}

function setCookies(res: LightMyRequestResponse): string[] {
  const header = res.headers["set-cookie"];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

/** The browser's round trip: start here, the provider's pages, back to the callback (not yet sent). */
async function signInAtProvider(returnTo?: string) {
  const appJar = new CookieJar();
  const query = returnTo === undefined ? "" : `?return_to=${encodeURIComponent(returnTo)}`;
  const start = await built.app.inject({ method: "GET", url: `/api/v1/auth/oidc/start${query}` });
  expect(start.statusCode).toBe(302);
  appJar.store(setCookies(start));
  const callback = await browseProvider(String(start.headers.location), provider.issuer, new CookieJar());
  return { start, callback, appJar };
}

function sendCallback(callback: URL, appJar: CookieJar) {
  return built.app.inject({
    method: "GET",
    url: `${callback.pathname}${callback.search}`,
    headers: { cookie: appJar.header() },
  });
}

async function lastAudit(action: string) {
  return db.db
    .selectFrom("audit_events")
    .selectAll()
    .where("action", "=", action)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
}

function jsonOf(value: unknown): Record<string, unknown> {
  return typeof value === "string" ? JSON.parse(value) : (value as Record<string, unknown>);
}

async function expectRefusal(res: LightMyRequestResponse, status: number, sentence: RegExp, reason: string) {
  expect(res.statusCode).toBe(status);
  expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(res.body).toMatch(sentence);
  expect(res.body).not.toMatch(/at .*\.(ts|js):\d+/);
  expect(setCookies(res).some((c) => c.startsWith("cts_session="))).toBe(false);
  const row = await lastAudit("session.login_failed");
  expect(row.request_id).toBe(res.headers["request-id"]);
  expect(jsonOf(row.after)).toMatchObject({ method: "oidc", reason });
  return row;
}

beforeEach(() => {
  provider.next = { deny: "no login chosen" };
});

describe("#15 OpenID Connect sign-in (API.md §11)", () => {
  it("start redirects to the provider: code flow, PKCE S256, state, nonce, scope openid email, our callback", async () => {
    const res = await built.app.inject({ method: "GET", url: "/api/v1/auth/oidc/start" });
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(location.origin).toBe(provider.issuer);
    const params = Object.fromEntries(location.searchParams);
    expect(params).toMatchObject({
      client_id: provider.clientId,
      response_type: "code",
      scope: "openid email",
      redirect_uri: CALLBACK,
      code_challenge_method: "S256",
    });
    expect(params.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [cookie] = setCookies(res);
    expect(cookie).toMatch(
      /^cts_oidc=v1:[^;]+; Max-Age=600; HttpOnly; SameSite=Lax; Path=\/api\/v1\/auth\/oidc\/callback$/,
    );
    // Sealed: neither the state, the nonce nor anything readable is in the cookie.
    expect(cookie).not.toContain(params.state);
    expect(cookie).not.toContain(params.nonce);
  });

  it("happy path: the verified email's active user is signed in, lands on return_to, audited as oidc", async () => {
    const { user } = await person();
    const { callback, appJar } = await signInAtProvider("/deals?status=approved");
    expect(callback.searchParams.get("code")).toBeTruthy();
    const res = await sendCallback(callback, appJar);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${ORIGIN}/deals?status=approved`);
    const cookies = setCookies(res);
    expect(cookies).toContain("cts_oidc=; Max-Age=0; HttpOnly; SameSite=Lax; Path=/api/v1/auth/oidc/callback");
    const session = cookies.find((c) => c.startsWith("cts_session="));
    expect(session).toMatch(/^cts_session=[A-Za-z0-9_-]{43}; Expires=[^;]+; HttpOnly; SameSite=Lax; Path=\/$/);
    const rows = await db.db.selectFrom("sessions").selectAll().where("user_id", "=", user!.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ended_at).toBeNull();
    // The new session authenticates /api/v1 as its person (the cookie alone, no key).
    const token = session!.slice("cts_session=".length, session!.indexOf(";"));
    const me = await built.app.inject({
      method: "GET",
      url: "/api/v1/auth/session",
      headers: { cookie: `cts_session=${token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toEqual(user);
    expect(me.json().csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const audit = await lastAudit("session.login");
    expect(audit).toMatchObject({ actor_type: "user", actor_id: user!.id, resource_id: user!.id });
    expect(jsonOf(audit.after)).toEqual({ method: "oidc", session_id: rows[0]!.id });
  });

  it("without return_to it lands on the console's start page", async () => {
    await person();
    const { callback, appJar } = await signInAtProvider();
    const res = await sendCallback(callback, appJar);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${ORIGIN}/`);
  });

  it.each([
    ["//evil.example/x"],
    ["https://evil.example/"],
    ["/\\evil.example"],
    ["/日本"], // not percent-encoded: it could not go into a Location header
    ["deals"],
    ["/ok\r\nSet-Cookie: x=1"],
  ])("return_to %j (not a path here) → 422, no redirect", async (returnTo) => {
    const res = await built.app.inject({
      method: "GET",
      url: `/api/v1/auth/oidc/start?return_to=${encodeURIComponent(returnTo)}`,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe("validation_error");
    expect(res.headers.location).toBeUndefined();
  });

  it("an email the provider has not verified → 403 page, no session, audited", async () => {
    const { user } = await person({ verified: false });
    const { callback, appJar } = await signInAtProvider();
    const res = await sendCallback(callback, appJar);
    const row = await expectRefusal(res, 403, /has not verified your email address/, "email_unverified");
    expect(row).toMatchObject({ actor_type: "user", actor_id: null, resource: "user", resource_id: user!.id });
    expect(await db.db.selectFrom("sessions").selectAll().where("user_id", "=", user!.id).execute()).toEqual([]);
  });

  it("a verified email no user has → 403 page (sign-in creates no user), audited anonymously", async () => {
    const { email } = await person({ here: false });
    const before = await db.db.selectFrom("users").select("id").execute();
    const { callback, appJar } = await signInAtProvider();
    const res = await sendCallback(callback, appJar);
    const row = await expectRefusal(res, 403, /No one with the email address .* may sign in here/, "unknown_user");
    expect(row).toMatchObject({
      actor_type: "user",
      actor_id: null,
      actor_name: "anonymous",
      resource: "login",
      resource_id: email,
    });
    expect(jsonOf(row.after).email).toBe(email.toUpperCase());
    expect(await db.db.selectFrom("users").select("id").execute()).toHaveLength(before.length);
  });

  it("an inactive user → 403 page, no session", async () => {
    const { user } = await person({ active: false });
    const { callback, appJar } = await signInAtProvider();
    const res = await sendCallback(callback, appJar);
    await expectRefusal(res, 403, /is deactivated/, "user_inactive");
    expect(await db.db.selectFrom("sessions").selectAll().where("user_id", "=", user!.id).execute()).toEqual([]);
  });

  it("bad state: another state, no cookie, an altered cookie, an expired one → 401 page, code never exchanged", async () => {
    await person();
    const { callback, appJar } = await signInAtProvider();
    const other = new URL(callback);
    other.searchParams.set("state", "A".repeat(43));
    await expectRefusal(
      await sendCallback(other, appJar),
      401,
      /expired, was already used or was tampered/,
      "bad_state",
    );
    const row = await expectRefusal(await sendCallback(callback, new CookieJar()), 401, /tampered/, "bad_state");
    expect(row).toMatchObject({ actor_id: null, actor_name: "anonymous", resource: "login", resource_id: "oidc" });
    const altered = new CookieJar();
    const sealed = appJar.get("cts_oidc")!;
    altered.store([`cts_oidc=${sealed.slice(0, -4)}${sealed.endsWith("AAA=") ? "BBB=" : "AAA="}`]);
    await expectRefusal(await sendCallback(callback, altered), 401, /tampered/, "bad_state");
    clock.advance(10 * 60_000 + 1);
    try {
      await expectRefusal(await sendCallback(callback, appJar), 401, /expired/, "bad_state");
    } finally {
      clock.advance(-(10 * 60_000 + 1));
    }
    // None of that spent the state: the untouched callback still signs in.
    expect((await sendCallback(callback, appJar)).statusCode).toBe(302);
  });

  it("a replayed callback (same code, state and cookie) is refused: the state works once", async () => {
    const { user } = await person();
    const { callback, appJar } = await signInAtProvider();
    expect((await sendCallback(callback, appJar)).statusCode).toBe(302);
    const replay = await sendCallback(callback, appJar);
    await expectRefusal(replay, 401, /already used/, "bad_state");
    expect(await db.db.selectFrom("sessions").selectAll().where("user_id", "=", user!.id).execute()).toHaveLength(1);
  });

  it("the provider refuses (error=access_denied on the callback) → 401 page naming the error, escaped", async () => {
    provider.next = { deny: "<script>alert(1)</script>" };
    const { callback, appJar } = await signInAtProvider();
    expect(callback.searchParams.get("error")).toBe("access_denied");
    const res = await sendCallback(callback, appJar);
    await expectRefusal(res, 401, /refused the sign-in \(access_denied\)/, "provider_refused");
    expect(res.body).not.toContain("<script>");
  });

  it("a forged error with HTML in it is escaped on the page", async () => {
    await person();
    const { callback, appJar } = await signInAtProvider();
    const forged = new URL(CALLBACK);
    forged.searchParams.set("state", callback.searchParams.get("state")!);
    forged.searchParams.set("iss", provider.issuer);
    forged.searchParams.set("error", "<img src=x onerror=alert(1)>");
    const res = await sendCallback(forged, appJar);
    await expectRefusal(res, 401, /&lt;img src=x onerror=alert\(1\)&gt;/, "provider_refused");
    expect(res.body).not.toContain("<img");
  });

  it("a write key cannot make an attacker's IdP email an admin: not by creating one, not by re-pointing an admin's email (§20 (a))", async () => {
    const { key } = await createKey(ownerCtx(), { name: "crm sync", scope: "write" });
    const asKey = (method: "POST" | "PATCH", url: string, payload: object) =>
      built.app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, payload });
    const { email } = await person({ here: false });

    const created = await asKey("POST", "/api/v1/users", { name: "Mallory", email, role: "admin" });
    expect([created.statusCode, created.json().error.message]).toEqual([
      403,
      'Setting role to "admin" needs the admin scope; this key has write',
    ]);
    const admin = await createUser(
      ownerCtx(),
      CreateUserBody.parse({ name: "Ada", email: uniqueEmail("a"), role: "admin" }),
    );
    const repointed = await asKey("PATCH", `/api/v1/users/${admin.id}`, { email });
    expect([repointed.statusCode, repointed.json().error.message]).toEqual([
      403,
      "Changing email needs the admin scope; this key has write",
    ]);
    let signIn = await signInAtProvider();
    await expectRefusal(
      await sendCallback(signIn.callback, signIn.appJar),
      403,
      /No one with the email/,
      "unknown_user",
    );

    // What a write key may still do: a rep with that email, who signs in as a rep.
    const rep = await asKey("POST", "/api/v1/users", { name: "Mallory", email, role: "rep" });
    expect(rep.statusCode).toBe(201);
    signIn = await signInAtProvider();
    const res = await sendCallback(signIn.callback, signIn.appJar);
    expect(res.statusCode).toBe(302);
    const session = setCookies(res).find((c) => c.startsWith("cts_session="))!;
    const me = await built.app.inject({
      method: "GET",
      url: "/api/v1/auth/session",
      headers: { cookie: session.slice(0, session.indexOf(";")) },
    });
    expect([me.json().user.id, me.json().user.role]).toEqual([rep.json().id, "rep"]);
  });

  it("refusals count as failed authentications from the address: past 30 a minute → 429, no more audit rows", async () => {
    const remoteAddress = "203.0.113.77";
    const count = async () =>
      (await db.db.selectFrom("audit_events").select("id").where("action", "=", "session.login_failed").execute())
        .length;
    const before = await count();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await built.app.inject({ method: "GET", url: "/api/v1/auth/oidc/callback?state=x", remoteAddress });
      statuses.push(res.statusCode);
      if (i === 30) {
        expect(res.json().error.code).toBe("rate_limited");
        expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      }
    }
    expect(statuses).toEqual([...Array(30).fill(401), 429]);
    expect(await count()).toBe(before + 30);
  });
});
