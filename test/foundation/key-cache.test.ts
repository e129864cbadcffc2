import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { authenticate, authenticateCached, KeyCache, presentedKey, setMcpAccess } from "../../src/api-keys/index.js";
import { FreshReads } from "../../src/api-keys/testing.js";
import { type BuiltApp, buildApp } from "../../src/app/build.js";
import { type Database, openDatabase } from "../../src/db/connect.js";
import { createApiKey, errorOf } from "../factories.js";
import { bearer, createTestApp, POSTGRES_URL, TEST_ENV, type TestApp } from "../harness.js";

/**
 * Authentication caches keys. A change made through one app instance must still bite on the very next
 * request of every other instance on the same database: on PostgreSQL a second app with its own pool
 * (as a second process has), on PGlite a second app on the same instance (the embedded deployment has
 * one process), both with the cache kept fresh by NOTIFY and with the version check.
 */
let t: TestApp;
let admin: { id: string; key: string };
let ownPool: Database | undefined;
const VARIANTS = POSTGRES_URL
  ? ["second process (own pool, version check)"]
  : ["second app (NOTIFY)", "second app (version check)"];
const others = new Map<string, BuiltApp>();

beforeAll(async () => {
  t = await createTestApp();
  admin = await createApiKey(t, "admin");
  if (POSTGRES_URL) {
    const schema = (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(t.db.db)).rows[0]!.s;
    ownPool = await openDatabase({ url: POSTGRES_URL, schema, poolSize: 2 });
    others.set(VARIANTS[0]!, await buildApp({ db: ownPool.db, env: TEST_ENV }));
  } else {
    others.set(VARIANTS[0]!, await buildApp({ db: t.db.db, pglite: t.db.pglite, env: TEST_ENV }));
    others.set(VARIANTS[1]!, await buildApp({ db: t.db.db, env: TEST_ENV }));
  }
});

afterAll(async () => {
  for (const other of others.values()) await other.app.close();
  await ownPool?.close();
  await t?.close();
});

const users = (built: BuiltApp, key: string) =>
  built.app.inject({ method: "GET", url: "/api/v1/users", headers: bearer(key) });
const post = (url: string, payload: object = {}) =>
  t.app.inject({ method: "POST", url, headers: bearer(admin.key), payload });

describe.each(VARIANTS)("%s", (label) => {
  const other = () => others.get(label)!;

  it("a key revoked through the first app is refused on the next request to the other", async () => {
    const target = await createApiKey(t, "read");
    expect((await users(other(), target.key)).statusCode).toBe(200);
    expect((await users(other(), target.key)).statusCode).toBe(200); // now served from the cache
    expect((await post(`/api/v1/api-keys/${target.id}/revoke`)).statusCode).toBe(200);
    const refused = await users(other(), target.key);
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused).message).toBe("This API key has been revoked");
  });

  it("a key rotated with no grace period through the first app is refused by the other; the new one works", async () => {
    const old = await createApiKey(t, "read");
    expect((await users(other(), old.key)).statusCode).toBe(200);
    const rotated = await post(`/api/v1/api-keys/${old.id}/rotate`, { grace_period_seconds: 0 });
    expect(rotated.statusCode).toBe(200);
    const refused = await users(other(), old.key);
    expect(refused.statusCode).toBe(401);
    expect(errorOf(refused).message).toMatch(/^This API key expired at /);
    expect((await users(other(), rotated.json().key)).statusCode).toBe(200);
  });

  it("a revocation written by plain SQL (another process, the owner CLI) is refused on the next request", async () => {
    const target = await createApiKey(t, "read");
    expect((await users(other(), target.key)).statusCode).toBe(200);
    await t.db.db.updateTable("api_keys").set({ revoked_at: new Date() }).where("id", "=", target.id).execute();
    expect((await users(other(), target.key)).statusCode).toBe(401);
    expect((await users(t, target.key)).statusCode).toBe(401);
  });

  it("an MCP access change by the owner reaches the other app's next request", async () => {
    const target = await createApiKey(t, "write");
    const tools = () =>
      other().app.inject({
        method: "POST",
        url: "/mcp",
        headers: { ...bearer(target.key), accept: "application/json, text/event-stream" },
        payload: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      });
    const names = async () => {
      const res = await tools();
      expect(res.statusCode, res.body).toBe(200);
      const text = res.body.startsWith("{") ? res.body : res.body.replace(/^[\s\S]*?data: /, "");
      return (JSON.parse(text).result.tools as { name: string }[]).map((x) => x.name);
    };
    const before = await names();
    expect(before).toContain("list_users");
    expect(before).not.toContain("update_user");
    await setMcpAccess(t.ownerCtx(), target.id, "write");
    expect(await names()).toContain("update_user");
  });
});

describe("what changes the key version", () => {
  const version = async () =>
    String((await t.db.db.selectFrom("api_key_version").select("version").executeTakeFirstOrThrow()).version);

  it("revoking bumps it; using a key (last_used_at) and creating one do not", async () => {
    const start = await version();
    const key = await createApiKey(t, "read");
    expect((await users(t, key.key)).statusCode).toBe(200);
    await t.app.inject({ method: "GET", url: "/api/v1/users", headers: bearer(key.key) });
    // last_used_at is written behind the request (authenticate.ts): wait for it, then check the version.
    await vi.waitFor(
      async () => {
        const used = await t.db.db
          .selectFrom("api_keys")
          .select("last_used_at")
          .where("id", "=", key.id)
          .executeTakeFirst();
        expect(used?.last_used_at).not.toBeNull();
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(await version()).toBe(start);
    await post(`/api/v1/api-keys/${key.id}/revoke`);
    expect(await version()).toBe(String(Number(start) + 1));
  });
});

describe("FreshReads: every caller gets a read that started after it asked", () => {
  it("callers during a running read share the next one; callers with none running start one", async () => {
    const pending: ((v: string) => void)[] = [];
    let calls = 0;
    const reads = new FreshReads(() => {
      calls++;
      return new Promise<string>((resolve) => pending.push(resolve));
    });
    const first = reads.read();
    const second = reads.read();
    const third = reads.read();
    expect(calls).toBe(1);
    pending[0]!("a");
    expect(await first).toBe("a");
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(2);
    const fourth = reads.read(); // the second read is running: this one waits for a third
    pending[1]!("b");
    expect([await second, await third]).toEqual(["b", "b"]);
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(3);
    pending[2]!("c");
    expect(await fourth).toBe("c");
  });
});

describe("authentication without waiting (app/admission.ts `admitRequest`)", () => {
  it.skipIf(POSTGRES_URL)("embedded: a cached key is trusted as it is, until a change empties the cache", async () => {
    const notified = await KeyCache.notified(t.db.db, t.db.pglite!);
    const versioned = KeyCache.versioned(t.db.db);
    try {
      const target = await createApiKey(t, "read");
      const hash = presentedKey(`Bearer ${target.key}`).hash!;
      expect(notified.trusted(hash)).toBeUndefined(); // not read yet
      const row = await notified.lookup(hash);
      expect(row?.id).toBe(target.id);
      expect(notified.trusted(hash)).toBe(row);
      // PostgreSQL's cache needs a fresh read of the key version first: never trusted as it is.
      expect((await versioned.lookup(hash))?.id).toBe(target.id);
      expect(versioned.trusted(hash)).toBeUndefined();
      expect((await post(`/api/v1/api-keys/${target.id}/revoke`)).statusCode).toBe(200);
      expect(notified.trusted(hash)).toBeUndefined();
    } finally {
      await notified.close();
    }
  });

  it.skipIf(POSTGRES_URL)("authenticateCached answers only for a trusted, live key of this environment", async () => {
    const cache = await KeyCache.notified(t.db.db, t.db.pglite!);
    try {
      const now = new Date();
      const live = await createApiKey(t, "write");
      const key = presentedKey(`Bearer ${live.key}`);
      expect(authenticateCached(t.db.db, cache, TEST_ENV, key, now)).toBeUndefined(); // not cached
      await cache.lookup(key.hash!);
      expect(authenticateCached(t.db.db, cache, TEST_ENV, key, now)).toEqual({
        type: "api_key",
        keyId: live.id,
        name: expect.any(String),
        scope: "write",
        mcpAccess: expect.any(String),
      });
      expect(authenticateCached(t.db.db, cache, "other", key, now)).toBeUndefined();
      // Past its expiry, `authenticate` answers (401 with the expiry): the cached path steps aside.
      cache.peek(key.hash!)!.expires_at = new Date(now.getTime() - 1);
      expect(authenticateCached(t.db.db, cache, TEST_ENV, key, now)).toBeUndefined();
      await expect(authenticate(t.db.db, cache, TEST_ENV, key, now)).rejects.toThrow(/^This API key expired at /);
    } finally {
      await cache.close();
    }
  });
});
