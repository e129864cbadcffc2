import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltApp, buildApp } from "../../src/app/build.js";
import { makeCtx, OWNER } from "../../src/context.js";
import { PostgresStore } from "../../src/rate-limit/postgres-store.js";
import { MemoryStore } from "../../src/rate-limit/stores.js";
import { CreateUserBody, createUser } from "../../src/users/index.js";
import { uniqueEmail } from "../factories.js";
import { createTestApp, openTestDb, TEST_ENV, TEST_SECRET_KEY, type TestApp, type TestDb } from "../harness.js";
import { browseProvider, CookieJar, setCookiesOf, startProvider, type TestProvider } from "./oidc-fixture.js";

const ORIGIN = "http://app.test";

describe("#15 OpenID Connect across processes", () => {
  let provider: TestProvider;
  let db: TestDb;
  const apps: BuiltApp[] = [];

  /** Another process of the same deployment: same database and secret key, its own memory. */
  async function processOf(store: PostgresStore | MemoryStore) {
    const built = await buildApp({
      db: db.db,
      env: TEST_ENV,
      publicUrl: ORIGIN,
      rateLimits: store,
      oidc: {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        secretKey: TEST_SECRET_KEY,
      },
    });
    apps.push(built);
    return built.app;
  }

  beforeAll(async () => {
    provider = await startProvider(`${ORIGIN}/api/v1/auth/oidc/callback`);
    db = await openTestDb();
  });

  afterAll(async () => {
    for (const built of apps) await built.app.close();
    await db?.dispose();
    await provider?.close();
  });

  async function roundTrip(start: Awaited<ReturnType<typeof processOf>>) {
    const email = uniqueEmail("oidc");
    const user = await createUser(makeCtx(db.db, TEST_ENV, OWNER), CreateUserBody.parse({ name: "Pat", email }));
    provider.accounts.set(`sub-${email}`, { email, email_verified: true });
    provider.next = { login: `sub-${email}` };
    const res = await start.inject({ method: "GET", url: "/api/v1/auth/oidc/start" });
    const jar = new CookieJar();
    jar.store(setCookiesOf(res));
    const callback = await browseProvider(String(res.headers.location), provider.issuer, new CookieJar());
    const send = (app: typeof start) =>
      app.inject({ method: "GET", url: `${callback.pathname}${callback.search}`, headers: { cookie: jar.header() } });
    return { user, send };
  }

  it("started in one process, finished in another; a replay in a third sharing the store is refused", async () => {
    const store = new PostgresStore(db.db);
    const [a, b, c] = [await processOf(store), await processOf(store), await processOf(store)];
    const { user, send } = await roundTrip(a);
    const done = await send(b);
    expect(done.statusCode).toBe(302);
    expect(setCookiesOf(done).some((cookie) => cookie.startsWith("cts_session="))).toBe(true);
    const replay = await send(c);
    expect(replay.statusCode).toBe(401);
    expect(replay.body).toContain("already used");
    const sessions = await db.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
    expect(sessions).toHaveLength(1);
  });

  it("even past the state check (a process with its own memory), the provider refuses a used code", async () => {
    const { user, send } = await roundTrip(await processOf(new MemoryStore()));
    expect((await send(await processOf(new MemoryStore()))).statusCode).toBe(302);
    const replay = await send(await processOf(new MemoryStore()));
    expect(replay.statusCode).toBe(401);
    expect(replay.body).toContain("refused the sign-in (invalid_grant)");
    const sessions = await db.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
    expect(sessions).toHaveLength(1);
  });
});

describe("#15 OpenID Connect not configured", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it.each([["/api/v1/auth/oidc/start"], ["/api/v1/auth/oidc/callback?code=x&state=y"]])(
    "GET %s → 404 not_found, no key needed",
    async (url) => {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatchObject({
        code: "not_found",
        message: "OpenID Connect sign-in is not configured on this service (CTS_OIDC_ISSUER)",
      });
    },
  );
});

describe("#15 OpenID Connect provider unreachable", () => {
  let db: TestDb;
  let built: BuiltApp;
  beforeAll(async () => {
    // A loopback port nothing listens on (bound, then released).
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    db = await openTestDb();
    built = await buildApp({
      db: db.db,
      env: TEST_ENV,
      publicUrl: ORIGIN,
      oidc: { issuer: `http://127.0.0.1:${closed}`, clientId: "c", clientSecret: "s", secretKey: TEST_SECRET_KEY },
    });
  });
  afterAll(async () => {
    await built?.app.close();
    await db?.dispose();
  });

  it("start → 503 unavailable, no state cookie", async () => {
    const res = await built.app.inject({ method: "GET", url: "/api/v1/auth/oidc/start" });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toMatchObject({
      code: "unavailable",
      message: "The OpenID Connect provider cannot be reached; try again shortly",
    });
    expect(res.headers["retry-after"]).toBe("5");
    expect(res.headers["set-cookie"]).toBeUndefined();
  });
});
