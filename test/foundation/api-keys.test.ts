import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createKey, setMcpAccess } from "../../src/api-keys/index.js";
import { makeCtx, OWNER } from "../../src/context.js";
import { createApiKey, errorOf, unique } from "../factories.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";

const KEY_FORMAT = /^cts_test_[0-9A-Za-z]{43}$/;

let t: TestApp;
let clock: TestClock;
let admin: { id: string; key: string; name: string };

beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock });
  admin = await createApiKey(t, "admin", { name: "Key admin" });
});

afterAll(async () => {
  await t?.close();
});

function api(method: "GET" | "POST", url: string, key: string, payload?: object) {
  return t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
}

async function auditRows(resourceId: string) {
  return t.db.db
    .selectFrom("audit_events")
    .selectAll()
    .where("resource_id", "=", resourceId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

async function keyRow(id: string) {
  return t.db.db.selectFrom("api_keys").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

describe("create", () => {
  it("returns the raw key once, in the contract's format, with the key's fields", async () => {
    const res = await api("POST", "/api/v1/api-keys", admin.key, { name: "CRM sync", scope: "write" });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.key).toMatch(KEY_FORMAT);
    expect(body).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Z]{26}$/),
      key: body.key,
      name: "CRM sync",
      scope: "write",
      environment: "test",
      prefix: `${body.key.slice(0, "cts_test_".length + 4)}…`,
      mcp_access: "read",
      replaces: null,
      created_at: clock.now().toISOString(),
      last_used_at: null,
      expires_at: null,
      revoked_at: null,
    });

    const one = await api("GET", `/api/v1/api-keys/${body.id}`, admin.key);
    expect(one.statusCode).toBe(200);
    expect(one.json()).not.toHaveProperty("key");
    expect(one.json()).toEqual({ ...body, key: undefined });
    const list = await api("GET", "/api/v1/api-keys?per_page=100", admin.key);
    expect(list.json().data.find((k: { id: string }) => k.id === body.id)).toEqual(one.json());
    for (const res of [one, list]) expect(res.body).not.toContain(body.key.slice("cts_test_".length));
  });

  it("stores only the SHA-256 of the key: no column holds the raw key or its secret", async () => {
    const res = await api("POST", "/api/v1/api-keys", admin.key, { name: unique("hashed"), scope: "read" });
    const { id, key } = res.json();
    const row = await keyRow(id);
    expect(row.key_hash).toBe(createHash("sha256").update(key).digest("hex"));
    const secret = key.slice("cts_test_".length);
    for (const value of Object.values(row)) {
      const text = value instanceof Date ? value.toISOString() : String(value);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(4));
    }
  });

  it.each([
    [{ name: "x", scope: "read", mcp_access: "admin" }, "mcp_access", "is read-only and cannot be set"],
    [{ name: "x", scope: "read", environment: "live" }, "environment", "is read-only and cannot be set"],
    [{ name: "x", scope: "read", key: "cts_test_mine" }, "key", "is not a recognized field"],
    [{ name: "", scope: "read" }, "name", "must be at least 1 characters"],
    [{ name: "x", scope: "owner" }, "scope", "must be one of: read, write, admin"],
    [{ name: "x", scope: "read", expires_at: "2026-11-22T09:59:59.000Z" }, "expires_at", "must be in the future"],
    [
      { name: "x", scope: "read", expires_at: "tomorrow" },
      "expires_at",
      "must be an RFC 3339 timestamp such as 2026-11-22T10:00:00.000Z, from 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z",
    ],
  ])("%j → 422 naming %s", async (payload, param, message) => {
    const res = await api("POST", "/api/v1/api-keys", admin.key, payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).code).toBe("validation_error");
    const detail = errorOf(res).details?.find((d) => d.param === param);
    expect(detail).toBeDefined();
    expect(detail!.message).toBe(message);
  });

  it("an expiring key works until its expires_at, then gets 401 expired", async () => {
    const expiresAt = new Date(clock.ms + 10_000).toISOString();
    const res = await api("POST", "/api/v1/api-keys", admin.key, {
      name: unique("temp"),
      scope: "read",
      expires_at: expiresAt,
    });
    expect(res.json().expires_at).toBe(expiresAt);
    const { key } = res.json();
    clock.advance(9_999);
    expect((await api("GET", "/api/v1/users", key)).statusCode).toBe(200);
    clock.advance(1);
    const expired = await api("GET", "/api/v1/users", key);
    expect(expired.statusCode).toBe(401);
    expect(errorOf(expired).message).toBe(`This API key expired at ${expiresAt}`);
  });
});

describe("scopes nest: admin ⊃ write ⊃ read", () => {
  it.each([
    ["read", "GET", "/api/v1/users", 200],
    ["read", "POST", "/api/v1/users", 403],
    ["write", "GET", "/api/v1/users", 200],
    ["write", "POST", "/api/v1/users", 201],
    ["write", "GET", "/api/v1/api-keys", 403],
    ["admin", "GET", "/api/v1/users", 200],
    ["admin", "POST", "/api/v1/users", 201],
    ["admin", "GET", "/api/v1/api-keys", 200],
  ] as const)("a %s key: %s %s → %i", async (scope, method, url, status) => {
    const { key } = await createApiKey(t, scope);
    const payload = method === "POST" ? { name: "Nested", email: `${unique("n")}@example.com` } : undefined;
    const res = await api(method, url, key, payload);
    expect(res.statusCode, res.body).toBe(status);
  });
});

describe("revoke", () => {
  it("takes effect on the very next request, and repeating it changes nothing", async () => {
    const target = await createApiKey(t, "write");
    expect((await api("GET", "/api/v1/users", target.key)).statusCode).toBe(200);
    const res = await api("POST", `/api/v1/api-keys/${target.id}/revoke`, admin.key);
    expect(res.statusCode).toBe(200);
    expect(res.json().revoked_at).toBe(clock.now().toISOString());
    const after = await api("GET", "/api/v1/users", target.key);
    expect(after.statusCode).toBe(401);
    expect(errorOf(after).message).toBe("This API key has been revoked");

    clock.advance(1_000);
    const again = await api("POST", `/api/v1/api-keys/${target.id}/revoke`, admin.key);
    expect(again.statusCode).toBe(200);
    expect(again.json().revoked_at).toBe(res.json().revoked_at);
    expect((await auditRows(target.id)).filter((r) => r.action === "api_key.revoke")).toHaveLength(1);
  });

  it("a key can revoke itself; its next request is refused", async () => {
    const self = await createApiKey(t, "admin");
    expect((await api("POST", `/api/v1/api-keys/${self.id}/revoke`, self.key)).statusCode).toBe(200);
    expect((await api("GET", "/api/v1/api-keys", self.key)).statusCode).toBe(401);
  });
});

describe("rotate", () => {
  it("returns a new key (new id, replaces, same name and scope, mcp_access reset); the old one lasts the grace period", async () => {
    const old = await createApiKey(t, "write", { name: "Warehouse loader" });
    await setMcpAccess(t.ownerCtx(), old.id, "write");
    const res = await api("POST", `/api/v1/api-keys/${old.id}/rotate`, admin.key, { grace_period_seconds: 3600 });
    expect(res.statusCode, res.body).toBe(200);
    const rotated = res.json();
    expect(rotated.id).toMatch(/^key_/);
    expect(rotated.id).not.toBe(old.id);
    expect(rotated).toMatchObject({
      replaces: old.id,
      name: "Warehouse loader",
      scope: "write",
      mcp_access: "read",
      environment: "test",
      expires_at: null,
      revoked_at: null,
    });
    expect(rotated.key).toMatch(KEY_FORMAT);
    expect(rotated.key).not.toBe(old.key);

    const graceEnd = new Date(clock.ms + 3_600_000).toISOString();
    expect((await api("GET", `/api/v1/api-keys/${old.id}`, admin.key)).json().expires_at).toBe(graceEnd);
    expect((await api("GET", "/api/v1/users", old.key)).statusCode).toBe(200);
    clock.advance(3_599_999);
    expect((await api("GET", "/api/v1/users", old.key)).statusCode).toBe(200);
    clock.advance(1);
    const dead = await api("GET", "/api/v1/users", old.key);
    expect(dead.statusCode).toBe(401);
    expect(errorOf(dead).message).toBe(`This API key expired at ${graceEnd}`);
    expect((await api("GET", "/api/v1/users", rotated.key)).statusCode).toBe(200);
  });

  it("grace 0 (the default) ends the old key at once", async () => {
    const old = await createApiKey(t, "read");
    const res = await api("POST", `/api/v1/api-keys/${old.id}/rotate`, admin.key, {});
    expect(res.statusCode).toBe(200);
    expect((await api("GET", "/api/v1/users", old.key)).statusCode).toBe(401);
    expect((await api("GET", "/api/v1/users", res.json().key)).statusCode).toBe(200);
  });

  it("never extends an earlier expiry", async () => {
    const expiresAt = new Date(clock.ms + 60_000).toISOString();
    const old = await createApiKey(t, "read", { expires_at: expiresAt });
    const res = await api("POST", `/api/v1/api-keys/${old.id}/rotate`, admin.key, { grace_period_seconds: 86_400 });
    expect(res.statusCode).toBe(200);
    expect((await keyRow(old.id)).expires_at!.toISOString()).toBe(expiresAt);
  });

  it.each([86_401, -1, 1.5, "60"])("grace_period_seconds %j → 422", async (grace) => {
    const old = await createApiKey(t, "read");
    const res = await api("POST", `/api/v1/api-keys/${old.id}/rotate`, admin.key, { grace_period_seconds: grace });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).details?.[0]?.param).toBe("grace_period_seconds");
    expect((await api("GET", "/api/v1/users", old.key)).statusCode).toBe(200);
  });

  it("accepts the boundaries 0 and 86400", async () => {
    for (const grace of [0, 86_400]) {
      const old = await createApiKey(t, "read");
      const res = await api("POST", `/api/v1/api-keys/${old.id}/rotate`, admin.key, { grace_period_seconds: grace });
      expect(res.statusCode).toBe(200);
    }
  });

  it("a revoked or expired key cannot be rotated (409 conflict)", async () => {
    const revoked = await createApiKey(t, "read");
    await api("POST", `/api/v1/api-keys/${revoked.id}/revoke`, admin.key);
    const res = await api("POST", `/api/v1/api-keys/${revoked.id}/rotate`, admin.key, {});
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe("conflict");

    const expiring = await createApiKey(t, "read", { expires_at: new Date(clock.ms + 1000).toISOString() });
    clock.advance(1000);
    const expired = await api("POST", `/api/v1/api-keys/${expiring.id}/rotate`, admin.key, {});
    expect(expired.statusCode).toBe(409);
    expect(errorOf(expired).code).toBe("conflict");
  });
});

describe("last_used_at", () => {
  it("is set when the key is used, at most once a minute", async () => {
    const used = await createApiKey(t, "read");
    expect((await keyRow(used.id)).last_used_at).toBeNull();
    const firstUse = clock.now();
    expect((await api("GET", "/api/v1/users", used.key)).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await keyRow(used.id)).last_used_at).toEqual(firstUse));

    clock.advance(30_000);
    await api("GET", "/api/v1/users", used.key);
    clock.advance(30_000);
    const secondUse = clock.now();
    await api("GET", "/api/v1/users", used.key);
    await vi.waitFor(async () => expect((await keyRow(used.id)).last_used_at).toEqual(secondUse));
    const shown = await api("GET", `/api/v1/api-keys/${used.id}`, admin.key);
    expect(shown.json().last_used_at).toBe(secondUse.toISOString());
  });
});

describe("audit trail", () => {
  it("records create, revoke and rotate with the acting key and request id, and no secret", async () => {
    const created = await api("POST", "/api/v1/api-keys", admin.key, { name: unique("audited"), scope: "read" });
    const { id, key } = created.json();
    const rotated = await api("POST", `/api/v1/api-keys/${id}/rotate`, admin.key, { grace_period_seconds: 60 });
    const newId = rotated.json().id;
    const newKey = rotated.json().key;
    const revoked = await api("POST", `/api/v1/api-keys/${newId}/revoke`, admin.key);

    const rows = [...(await auditRows(id)), ...(await auditRows(newId))];
    expect(rows.map((r) => [r.action, r.resource_id, r.request_id])).toEqual([
      ["api_key.create", id, created.headers["request-id"]],
      ["api_key.rotate", id, rotated.headers["request-id"]],
      ["api_key.create", newId, rotated.headers["request-id"]],
      ["api_key.revoke", newId, revoked.headers["request-id"]],
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({
        actor_type: "api_key",
        actor_id: admin.id,
        actor_name: "Key admin",
        resource: "api_key",
      });
      const text = JSON.stringify([row.before, row.after]);
      for (const secret of [key, newKey]) {
        expect(text).not.toContain(secret.slice("cts_test_".length));
        expect(text).not.toContain(createHash("sha256").update(secret).digest("hex"));
      }
      expect(text).not.toMatch(/"key"|"key_hash"/);
    }
    const rotateRow = rows[1]!;
    expect(rotateRow.before).toMatchObject({ id, expires_at: null });
    expect(rotateRow.after).toMatchObject({ id, expires_at: new Date(clock.ms + 60_000).toISOString() });
  });

  it("a failed request writes no audit row", async () => {
    const before = await t.db.db
      .selectFrom("audit_events")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    await api("POST", "/api/v1/api-keys", admin.key, { name: "x", scope: "read", mcp_access: "admin" });
    await api("POST", `/api/v1/api-keys/key_00000000000000000000000000/revoke`, admin.key);
    const after = await t.db.db
      .selectFrom("audit_events")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe("environments", () => {
  it("a real key of another environment is refused even when the database holds it", async () => {
    const live = await createKey(makeCtx(t.db.db, "live", OWNER, null, clock.now()), {
      name: "live key",
      scope: "admin",
    });
    expect(live.key).toMatch(/^cts_live_/);
    const res = await api("GET", "/api/v1/users", live.key);
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).message).toBe(
      "This is a live key; this server is the test environment. Use a key issued here.",
    );
  });
});
