import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltApp, buildApp } from "../../src/app/build.js";
import { makeCtx, OWNER } from "../../src/context.js";
import { createUser, updateUser } from "../../src/users/index.js";
import { openTestDb, TEST_ENV, TEST_SECRET_KEY, type TestDb } from "../harness.js";
import { startProvider, type TestProvider } from "./oidc-fixture.js";

const ORIGIN = "http://app.test";

let provider: TestProvider;
let db: TestDb;
let withOidc: BuiltApp;
let passwordOnly: BuiltApp;

beforeAll(async () => {
  provider = await startProvider(`${ORIGIN}/api/v1/auth/oidc/callback`);
  db = await openTestDb();
  const base = { db: db.db, pglite: db.pglite, env: TEST_ENV, publicUrl: ORIGIN };
  passwordOnly = await buildApp(base);
  withOidc = await buildApp({
    ...base,
    oidc: {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      secretKey: TEST_SECRET_KEY,
    },
  });
});

afterAll(async () => {
  await withOidc?.app.close();
  await passwordOnly?.app.close();
  await db?.dispose();
  await provider?.close();
});

describe("#17 GET /auth/methods: which ways to sign in the console offers", () => {
  it("without CTS_OIDC_*: password only, with no key or session", async () => {
    const res = await passwordOnly.app.inject({ method: "GET", url: "/api/v1/auth/methods" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ password: true, oidc: false, password_reset: false, needs_first_admin: true });
  });

  it("with OpenID Connect configured: password and oidc, and the SSO start it points to redirects", async () => {
    const res = await withOidc.app.inject({ method: "GET", url: "/api/v1/auth/methods" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ password: true, oidc: true, password_reset: false, needs_first_admin: true });
    const start = await withOidc.app.inject({ method: "GET", url: "/api/v1/auth/oidc/start?return_to=%2Fdisputes" });
    expect(start.statusCode).toBe(302);
    expect(String(start.headers.location)).toMatch(new RegExp(`^${provider.issuer}/`));
  });

  it("answers the same with a key's Authorization header or a cookie (public: neither is checked)", async () => {
    const res = await passwordOnly.app.inject({
      method: "GET",
      url: "/api/v1/auth/methods",
      headers: { authorization: "Bearer not-a-key", cookie: "cts_session=not-a-session" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ password: true, oidc: false, password_reset: false, needs_first_admin: true });
  });

  it("answers If-None-Match with its ETag by 304", async () => {
    const first = await passwordOnly.app.inject({ method: "GET", url: "/api/v1/auth/methods" });
    const etag = String(first.headers.etag);
    const again = await passwordOnly.app.inject({
      method: "GET",
      url: "/api/v1/auth/methods",
      headers: { "if-none-match": etag },
    });
    expect(again.statusCode).toBe(304);
  });

  it("#28 needs_first_admin: true until an active admin exists (other roles and an inactive admin do not count)", async () => {
    const owner = makeCtx(db.db, TEST_ENV, OWNER);
    const needs = async () => {
      const res = await passwordOnly.app.inject({ method: "GET", url: "/api/v1/auth/methods" });
      expect(res.statusCode).toBe(200);
      return (res.json() as { needs_first_admin: boolean }).needs_first_admin;
    };
    await createUser(owner, { name: "Finance", email: "finance@methods.test", role: "finance", active: true });
    expect(await needs()).toBe(true);
    const admin = await createUser(owner, { name: "Admin", email: "admin@methods.test", role: "admin", active: true });
    expect(await needs()).toBe(false);
    await updateUser(owner, admin.id, { active: false });
    expect(await needs()).toBe(true);
  });
});
