import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app/build.js";
import type { RequestLog } from "../../src/request-logs/schema.js";
import { createApiKey, errorOf, unknownId } from "../factories.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";

let t: TestApp;
let clock: TestClock;
let admin: string;

beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock });
  admin = (await createApiKey(t, "admin")).key;
});

afterAll(async () => {
  await t?.close();
});

async function logs(query = ""): Promise<{ data: RequestLog[]; meta: { total: number } }> {
  const res = await t.app.inject({
    method: "GET",
    url: `/api/v1/request-logs?per_page=100&${query}`,
    headers: bearer(admin),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe("GET /request-logs", () => {
  it("lists each request with key, method, path, status, duration, client IP and user agent", async () => {
    const caller = await createApiKey(t, "write");
    const headers = { ...bearer(caller.key), "user-agent": "crm-sync/2.1" };
    const ok = await t.app.inject({
      method: "GET",
      url: "/api/v1/users?role=rep",
      headers,
      remoteAddress: "198.51.100.4",
    });
    const missing = await t.app.inject({ method: "GET", url: `/api/v1/users/${unknownId("usr")}`, headers });
    const invalid = await t.app.inject({ method: "POST", url: "/api/v1/users", headers, payload: { name: "" } });

    const page = await logs(`key_id=${caller.id}`);
    expect(page.meta.total).toBe(3);
    const byId = new Map(page.data.map((row) => [row.id, row]));
    expect(byId.get(ok.headers["request-id"] as string)).toEqual({
      id: ok.headers["request-id"],
      key_id: caller.id,
      user_id: null,
      method: "GET",
      path: "/api/v1/users?role=rep",
      status: 200,
      duration_ms: expect.any(Number),
      client_ip: "198.51.100.4",
      user_agent: "crm-sync/2.1",
      created_at: clock.now().toISOString(),
    });
    expect(byId.get(missing.headers["request-id"] as string)).toMatchObject({ method: "GET", status: 404 });
    expect(byId.get(invalid.headers["request-id"] as string)).toMatchObject({
      method: "POST",
      path: "/api/v1/users",
      status: 422,
    });
    for (const row of page.data) expect(row.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("logs requests refused for their key (401, key_id null) and for their scope (403)", async () => {
    const reader = await createApiKey(t, "read");
    const unauthorized = await t.app.inject({ method: "GET", url: "/api/v1/api-keys", remoteAddress: "198.51.100.9" });
    const forbidden = await t.app.inject({ method: "GET", url: "/api/v1/api-keys", headers: bearer(reader.key) });
    const all = await logs();
    expect(all.data.find((r) => r.id === unauthorized.headers["request-id"])).toMatchObject({
      key_id: null,
      status: 401,
      client_ip: "198.51.100.9",
    });
    expect(all.data.find((r) => r.id === forbidden.headers["request-id"])).toMatchObject({
      key_id: reader.id,
      status: 403,
    });
  });

  it("records the forwarded client IP only behind a trusted proxy (CTS_TRUST_PROXY)", async () => {
    const caller = await createApiKey(t, "read");
    const headers = { ...bearer(caller.key), "x-forwarded-for": "192.0.2.77" };
    const proxied = await buildApp({ db: t.db.db, env: "test", clock: clock.now, trustProxy: 1 });
    const viaProxy = await proxied.app.inject({
      method: "GET",
      url: "/api/v1/users",
      remoteAddress: "10.0.0.5",
      headers,
    });
    await proxied.app.close();
    const direct = await t.app.inject({ method: "GET", url: "/api/v1/users", remoteAddress: "10.0.0.6", headers });
    const rows = new Map((await logs(`key_id=${caller.id}`)).data.map((r) => [r.id, r.client_ip]));
    expect(rows.get(viaProxy.headers["request-id"] as string)).toBe("192.0.2.77");
    expect(rows.get(direct.headers["request-id"] as string)).toBe("10.0.0.6");
  });

  it("does not log public endpoints (/healthz, the OpenAPI document)", async () => {
    const health = await t.app.inject({ method: "GET", url: "/healthz" });
    const doc = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    const ids = (await logs()).data.map((r) => r.id);
    expect(ids).not.toContain(health.headers["request-id"]);
    expect(ids).not.toContain(doc.headers["request-id"]);
  });

  it("shows its own earlier calls, newest first (created_at desc, id desc)", async () => {
    const first = await t.app.inject({ method: "GET", url: "/api/v1/request-logs", headers: bearer(admin) });
    clock.advance(1_000);
    const rows = (await logs()).data;
    expect(rows.map((r) => r.id)).toContain(first.headers["request-id"]);
    const sorted = [...rows].sort((a, b) =>
      a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
    );
    expect(rows).toEqual(sorted);
  });

  it("filters by key_id, status and since (inclusive), alone and together", async () => {
    const a = await createApiKey(t, "read");
    const b = await createApiKey(t, "read");
    clock.advance(60_000);
    const since = clock.now().toISOString();
    await t.app.inject({ method: "GET", url: "/api/v1/users", headers: bearer(a.key) });
    await t.app.inject({ method: "GET", url: `/api/v1/users/${unknownId("usr")}`, headers: bearer(a.key) });
    clock.advance(1_000);
    await t.app.inject({ method: "GET", url: `/api/v1/users/${unknownId("usr")}`, headers: bearer(b.key) });

    const onlyA = await logs(`key_id=${a.id}`);
    expect(onlyA.data.every((r) => r.key_id === a.id)).toBe(true);
    expect(onlyA.meta.total).toBe(2);

    const notFound = await logs("status=404");
    expect(notFound.data.every((r) => r.status === 404)).toBe(true);
    expect(notFound.data.map((r) => r.key_id)).toEqual(expect.arrayContaining([a.id, b.id]));

    expect((await logs(`key_id=${a.id}&status=404`)).data).toHaveLength(1);
    const recent = await logs(`since=${encodeURIComponent(since)}`);
    expect(recent.data.every((r) => r.created_at >= since)).toBe(true);
    expect(recent.data.filter((r) => r.key_id === a.id || r.key_id === b.id)).toHaveLength(3);
    const later = new Date(Date.parse(since) + 1).toISOString();
    expect((await logs(`key_id=${a.id}&since=${encodeURIComponent(later)}`)).data).toEqual([]);
    expect((await logs(`key_id=${b.id}&since=${encodeURIComponent(later)}`)).data).toHaveLength(1);
  });

  it.each(["status=abc", "status=99", "since=yesterday", "method=GET"])("%s → 422", async (query) => {
    const res = await t.app.inject({ method: "GET", url: `/api/v1/request-logs?${query}`, headers: bearer(admin) });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).details?.[0]?.param).toBe(query.split("=")[0]);
  });

  it.each(["read", "write"] as const)("a %s key → 403 naming the admin scope", async (scope) => {
    const { key } = await createApiKey(t, scope);
    const res = await t.app.inject({ method: "GET", url: "/api/v1/request-logs", headers: bearer(key) });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe("forbidden");
    expect(errorOf(res).message).toContain("admin scope");
  });
});

describe("request-log rows are written behind, in batches", () => {
  it("a request's row is in GET /request-logs as soon as it is answered (the reader flushes first)", async () => {
    const caller = await createApiKey(t, "read");
    const res = await t.app.inject({ method: "GET", url: "/api/v1/users", headers: bearer(caller.key) });
    const page = await logs(`key_id=${caller.id}`);
    expect(page.data.map((r) => r.id)).toEqual([res.headers["request-id"]]);
  });

  it("a clean shutdown (app.close) writes every row still buffered", async () => {
    const own = await buildApp({ db: t.db.db, env: "test", clock: clock.now });
    const caller = await createApiKey(t, "read");
    const answered = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        own.app.inject({ method: "GET", url: `/api/v1/users?per_page=${i + 1}`, headers: bearer(caller.key) }),
      ),
    );
    expect(answered.map((r) => r.statusCode)).toEqual(answered.map(() => 200));
    await own.app.close();
    // Read straight from the table: nothing here flushes the closed app's writer.
    const rows = await t.db.db.selectFrom("request_logs").select("id").where("key_id", "=", caller.id).execute();
    expect(rows.map((r) => r.id).sort()).toEqual(answered.map((r) => r.headers["request-id"] as string).sort());
  });
});
