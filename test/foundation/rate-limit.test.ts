import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltApp, buildApp } from "../../src/app/build.js";
import type { TrustProxy } from "../../src/config.js";
import { decide, FAILED_AUTH_PER_IP, PER_KEY, policyHeader, stateHeader } from "../../src/rate-limit/limiter.js";
import { MemoryStore } from "../../src/rate-limit/stores.js";
import { craftKey, createApiKey, createUser, errorOf } from "../factories.js";
import { bearer, createTestApp, type TestApp, TestClock } from "../harness.js";

const POLICY = '"per-key";q=100;w=60';
const W = 60_000;

let t: TestApp;
let clock: TestClock;
/** A cheap endpoint that answers 200 (one lookup after authentication). */
let cheapUrl: string;

beforeAll(async () => {
  clock = new TestClock();
  t = await createTestApp({ clock });
  cheapUrl = `/api/v1/users/${(await createUser(t)).id}`;
});

afterAll(async () => {
  await t?.close();
});

function get(key: string, url = cheapUrl, headers: Record<string, string> = {}) {
  return t.app.inject({ method: "GET", url, headers: { ...bearer(key), ...headers } });
}

/** `n` requests at the current clock time; returns them all. */
async function burst(key: string, n: number): Promise<LightMyRequestResponse[]> {
  const out: LightMyRequestResponse[] = [];
  for (let i = 0; i < n; i++) out.push(await get(key));
  return out;
}

function expectLimited(res: LightMyRequestResponse, retryAfter: number) {
  expect(res.statusCode).toBe(429);
  expect(errorOf(res).code).toBe("rate_limited");
  expect(res.headers["retry-after"]).toBe(String(retryAfter));
}

describe("per key: 100 requests per rolling 60 s", () => {
  it("lets 100 through, refuses the 101st with Retry-After, and sends exact headers", async () => {
    const { key } = await createApiKey(t, "read");
    const responses = await burst(key, 101);
    expect(responses.slice(0, 100).every((r) => r.statusCode === 200)).toBe(true);
    for (const res of responses) expect(res.headers["ratelimit-policy"]).toBe(POLICY);
    expect(responses.map((r) => r.headers.ratelimit).slice(0, 3)).toEqual([
      '"per-key";r=99;t=0',
      '"per-key";r=98;t=0',
      '"per-key";r=97;t=0',
    ]);
    expect(responses[98]!.headers.ratelimit).toBe('"per-key";r=1;t=0');
    expect(responses[99]!.headers.ratelimit).toBe('"per-key";r=0;t=60');
    const refused = responses[100]!;
    expectLimited(refused, 60);
    expect(refused.headers.ratelimit).toBe('"per-key";r=0;t=60');
    expect(errorOf(refused).request_id).toBe(refused.headers["request-id"]);

    // 429 comes before 403: the exhausted read key on an admin route is rate limited, not forbidden.
    expectLimited(await get(key, "/api/v1/api-keys"), 60);
    // Another key is limited on its own.
    const other = await get((await createApiKey(t, "read")).key);
    expect(other.statusCode).toBe(200);
    expect(other.headers.ratelimit).toBe('"per-key";r=99;t=0');

    // Retry-After counts down as time passes; the key is free once the window has passed.
    clock.advance(30_000);
    expectLimited(await get(key), 30);
    clock.advance(29_999);
    const last = await get(key);
    expectLimited(last, 1);
    expect(last.headers.ratelimit).toBe('"per-key";r=0;t=1');
    clock.advance(1);
    const freed = await get(key);
    expect(freed.statusCode).toBe(200);
    expect(freed.headers.ratelimit).toBe('"per-key";r=99;t=0');
  });

  it("has no burst at a window edge: only requests whose 60 s have passed are freed", async () => {
    const start = clock.ms;
    const { key } = await createApiKey(t, "read");
    const allowedAt: number[] = [];
    const attempt = async () => {
      const res = await get(key);
      if (res.statusCode === 200) allowedAt.push(clock.ms - start);
      return res;
    };
    for (let i = 0; i < 40; i++) await attempt(); // t = 0
    clock.advance(59_900);
    for (let i = 0; i < 60; i++) await attempt(); // t = 59.9 s
    expectLimited(await attempt(), 1);
    clock.advance(100); // t = 60.0 s: the 40 requests of t = 0 have just expired
    const atEdge: LightMyRequestResponse[] = [];
    for (let i = 0; i < 41; i++) atEdge.push(await attempt());
    expect(atEdge.filter((r) => r.statusCode === 200)).toHaveLength(40);
    expect(atEdge[39]!.headers.ratelimit).toBe('"per-key";r=0;t=60');
    expectLimited(atEdge[40]!, 60);

    // Never more than 100 in any 60 s span of what was let through ...
    const maxInAnyWindow = Math.max(
      ...allowedAt.map((from) => allowedAt.filter((s) => s >= from && s < from + 60_000).length),
    );
    expect(maxInAnyWindow).toBe(100);
    // ... where a fixed minute window would have reset at t = 60.0 s and let 100 more through at once.
    const fixedWindowAllows = (attempts: number[]) => {
      const counts = new Map<number, number>();
      return attempts.filter((s) => {
        const window = Math.floor((start + s) / 60_000);
        const n = counts.get(window) ?? 0;
        counts.set(window, n + 1);
        return n < 100;
      });
    };
    const attempts = [...Array(40).fill(0), ...Array(61).fill(59_900), ...Array(101).fill(60_000)];
    const fixed = fixedWindowAllows(attempts);
    expect(fixed.filter((s) => s >= 59_900)).toHaveLength(160);
    expect(allowedAt.filter((s) => s >= 59_900)).toHaveLength(100);
  });

  it("a 304 Not Modified still counts", async () => {
    const { key } = await createApiKey(t, "read");
    const first = await get(key);
    expect(first.headers.ratelimit).toBe('"per-key";r=99;t=0');
    const etag = first.headers.etag as string;
    const again = await get(key, cheapUrl, { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.headers.ratelimit).toBe('"per-key";r=98;t=0');
    expect(again.headers["ratelimit-policy"]).toBe(POLICY);
  });

  it("errors count too (404, 405, 422), on every endpoint", async () => {
    const { key } = await createApiKey(t, "read");
    await get(key, "/api/v1/nowhere");
    await t.app.inject({ method: "DELETE", url: "/api/v1/users", headers: bearer(key) });
    const invalid = await get(key, "/api/v1/users?per_page=0");
    expect(invalid.statusCode).toBe(422);
    expect(invalid.headers.ratelimit).toBe('"per-key";r=97;t=0');
  });
});

describe("per IP: 30 failed authentications per rolling minute", () => {
  it("refuses the 31st failed attempt with 429 while a valid key from that IP still passes", async () => {
    const ip = "203.0.113.7";
    const bad = (authorization?: string) =>
      t.app.inject({
        method: "GET",
        url: "/api/v1/users",
        remoteAddress: ip,
        headers: authorization ? { authorization } : {},
      });
    const failures: LightMyRequestResponse[] = [];
    for (let i = 0; i < 30; i++) failures.push(await bad(i % 2 ? `Bearer ${craftKey("test")}` : undefined));
    expect(failures.map((r) => r.statusCode)).toEqual(Array(30).fill(401));

    const refused = await bad(`Bearer ${craftKey("test")}`);
    expectLimited(refused, 60);
    expect(errorOf(refused).request_id).toBe(refused.headers["request-id"]);

    const { key } = await createApiKey(t, "read");
    const valid = await t.app.inject({ method: "GET", url: "/api/v1/users", remoteAddress: ip, headers: bearer(key) });
    expect(valid.statusCode).toBe(200);

    const elsewhere = await t.app.inject({ method: "GET", url: "/api/v1/users", remoteAddress: "203.0.113.8" });
    expect(elsewhere.statusCode).toBe(401);

    // Refusals by the IP limiter are not logged one row each; the 401s are.
    await t.requestLog.flush();
    const rows = await t.db.db
      .selectFrom("request_logs")
      .select(["status"])
      .where("client_ip", "=", ip)
      .where("key_id", "is", null)
      .execute();
    expect(rows.filter((r) => r.status === 401)).toHaveLength(30);
    expect(rows.filter((r) => r.status === 429)).toHaveLength(0);

    clock.advance(60_000);
    expect((await bad()).statusCode).toBe(401);
  });
});

describe("the client IP behind proxies (CTS_TRUST_PROXY)", () => {
  const failFrom = (app: BuiltApp["app"], socket: string, forwardedFor: string) =>
    app.inject({
      method: "GET",
      url: "/api/v1/users",
      remoteAddress: socket,
      headers: { "x-forwarded-for": forwardedFor },
    });

  it("ignores X-Forwarded-For from an untrusted peer: spoofing it does not dodge the limiter", async () => {
    const socket = "198.51.100.20";
    for (let i = 0; i < 30; i++) expect((await failFrom(t.app, socket, `192.0.2.${i}`)).statusCode).toBe(401);
    expectLimited(await failFrom(t.app, socket, "192.0.2.99"), 60);
  });

  it.each([
    ["a hop count", 1],
    ["proxy addresses", ["198.51.100.0/24"]],
  ] as const)("trusted as %s: limits the forwarded client, not the proxy", async (_label, trustProxy) => {
    const proxied = await buildApp({
      db: t.db.db,
      env: "test",
      clock: clock.now,
      trustProxy: trustProxy as TrustProxy,
    });
    try {
      const proxy = "198.51.100.30";
      for (let i = 0; i < 30; i++) expect((await failFrom(proxied.app, proxy, "192.0.2.1")).statusCode).toBe(401);
      expectLimited(await failFrom(proxied.app, proxy, "192.0.2.1"), 60);
      expect((await failFrom(proxied.app, proxy, "192.0.2.2")).statusCode).toBe(401);
    } finally {
      await proxied.app.close();
    }
  });
});

describe("MemoryStore (the embedded sliding log)", () => {
  it("allows up to the limit, counting remaining down, then refuses", async () => {
    const store = new MemoryStore();
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await store.hit("k", 3, W, 1_000));
    expect(decisions).toEqual([
      { allowed: true, remaining: 2, resetSeconds: 0 },
      { allowed: true, remaining: 1, resetSeconds: 0 },
      { allowed: true, remaining: 0, resetSeconds: 60 },
      { allowed: false, remaining: 0, resetSeconds: 60 },
    ]);
  });

  it("frees each request exactly windowMs after it, not a whole window at once", async () => {
    const store = new MemoryStore();
    await store.hit("k", 3, W, 0);
    await store.hit("k", 3, W, 10_000);
    await store.hit("k", 3, W, 20_000);
    expect(await store.hit("k", 3, W, 59_999)).toEqual({ allowed: false, remaining: 0, resetSeconds: 1 });
    expect(await store.hit("k", 3, W, 60_000)).toEqual({ allowed: true, remaining: 0, resetSeconds: 10 });
    expect((await store.hit("k", 3, W, 60_001)).allowed).toBe(false);
    expect(await store.hit("k", 3, W, 70_000)).toEqual({ allowed: true, remaining: 0, resetSeconds: 10 });
  });

  it("does not record refused requests (a client that keeps retrying is not held back longer)", async () => {
    const store = new MemoryStore();
    await store.hit("k", 1, W, 0);
    for (let ms = 1_000; ms < W; ms += 1_000) expect((await store.hit("k", 1, W, ms)).allowed).toBe(false);
    expect((await store.hit("k", 1, W, W)).allowed).toBe(true);
  });

  it("rounds the wait up to whole seconds, at least 1", async () => {
    const store = new MemoryStore();
    await store.hit("k", 1, W, 0);
    expect((await store.hit("k", 1, W, 58_500)).resetSeconds).toBe(2);
    expect((await store.hit("k", 1, W, 59_999)).resetSeconds).toBe(1);
  });

  it("keeps keys apart, each with its own limit", async () => {
    const store = new MemoryStore();
    await store.hit("a", 1, W, 0);
    expect((await store.hit("a", 1, W, 1)).allowed).toBe(false);
    expect((await store.hit("b", 2, W, 1)).allowed).toBe(true);
    expect((await store.hit("b", 2, W, 1)).allowed).toBe(true);
    expect((await store.hit("b", 2, W, 1)).allowed).toBe(false);
  });

  it("still decides correctly after sweeping idle keys", async () => {
    const store = new MemoryStore();
    await store.hit("idle", 1, W, 0);
    await store.hit("busy", 20_000, W, 0);
    for (let i = 0; i < 10_000; i++) await store.hit("busy", 20_000, W, W + 1);
    const logs = (store as unknown as { logs: Map<string, number[]> }).logs;
    expect(logs.has("idle")).toBe(false);
    expect(await store.hit("idle", 1, W, W + 2)).toEqual({ allowed: true, remaining: 0, resetSeconds: 60 });
  });
});

describe("limiter helpers", () => {
  it("formats the contract's headers", () => {
    expect(policyHeader(PER_KEY)).toBe(POLICY);
    expect(stateHeader({ allowed: true, remaining: 42, resetSeconds: 0 })).toBe('"per-key";r=42;t=0');
    expect(FAILED_AUTH_PER_IP).toEqual({ limit: 30, windowMs: 60_000 });
  });

  it("decide reports t = 0 while requests remain", () => {
    expect(decide([1, 2], 3, W, 10, true)).toEqual({ allowed: true, remaining: 1, resetSeconds: 0 });
    expect(decide([1, 2, 3], 3, W, 10, true)).toEqual({ allowed: true, remaining: 0, resetSeconds: 60 });
  });
});
