import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltApp, buildApp } from "../../src/app/build.js";
import { makeCtx, OWNER } from "../../src/context.js";
import { CreateUserBody, createUser } from "../../src/users/index.js";
import { uniqueEmail } from "../factories.js";
import { openTestDb, TEST_ENV, TEST_SECRET_KEY, type TestDb } from "../harness.js";
import {
  browseProvider,
  CookieJar,
  type ProviderAccount,
  setCookiesOf,
  startProvider,
  type TestProvider,
} from "./oidc-fixture.js";

const ORIGIN = "https://cts.example.com";

/** Which of the provider's statements the app trusts: the ID token's when it has the email, else userinfo's. */
describe.each([
  ["ID token", true],
  ["userinfo", false],
])("#15 OpenID Connect: the email and email_verified from the %s", (_where, emailInIdToken) => {
  let provider: TestProvider;
  let db: TestDb;
  let built: BuiltApp;

  beforeAll(async () => {
    provider = await startProvider(`${ORIGIN}/api/v1/auth/oidc/callback`, { emailInIdToken });
    db = await openTestDb();
    built = await buildApp({
      db: db.db,
      pglite: db.pglite,
      env: TEST_ENV,
      publicUrl: ORIGIN,
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

  async function attempt(account: (email: string) => ProviderAccount) {
    const email = uniqueEmail("claims");
    await createUser(makeCtx(db.db, TEST_ENV, OWNER), CreateUserBody.parse({ name: "Sam", email }));
    provider.accounts.set(`sub-${email}`, account(email));
    provider.next = { login: `sub-${email}` };
    const start = await built.app.inject({ method: "GET", url: "/api/v1/auth/oidc/start" });
    const jar = new CookieJar();
    jar.store(setCookiesOf(start));
    const callback = await browseProvider(String(start.headers.location), provider.issuer, new CookieJar());
    return built.app.inject({
      method: "GET",
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie: jar.header() },
    });
  }

  it("the statement read says verified → signed in (Secure cookies on an https origin)", async () => {
    const res = await attempt((email) =>
      emailInIdToken
        ? { email, email_verified: true, userinfo: { email_verified: false } }
        : { email, email_verified: true },
    );
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${ORIGIN}/`);
    const cookies = setCookiesOf(res);
    expect(cookies.find((c) => c.startsWith("cts_session="))).toMatch(/; HttpOnly; SameSite=Lax; Path=\/; Secure$/);
    expect(cookies).toContain("cts_oidc=; Max-Age=0; HttpOnly; SameSite=Lax; Path=/api/v1/auth/oidc/callback; Secure");
  });

  it("the statement read says unverified → 403", async () => {
    const res = await attempt((email) =>
      emailInIdToken
        ? { email, email_verified: false, userinfo: { email_verified: true } }
        : { email, email_verified: false },
    );
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain("has not verified your email address");
  });
});
