import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../src/db/connect.js";
import { FailoverStore } from "../../src/rate-limit/failover-store.js";
import { logSize, type RateLimitStore } from "../../src/rate-limit/limiter.js";
import { PostgresStore } from "../../src/rate-limit/postgres-store.js";
import { RedisStore } from "../../src/rate-limit/redis-store.js";
import { MemoryStore } from "../../src/rate-limit/stores.js";
import { openTestDb, POSTGRES_URL, type TestDb } from "../harness.js";

const schemaOf = async (d: TestDb) => (await sql<{ s: string }>`SELECT current_schema() AS s`.execute(d.db)).rows[0]!.s;

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const T0 = Date.parse("2026-11-22T10:00:00.000Z");
let db: TestDb;
let redis: RedisStore;
const redisUp = await (async () => {
  const probe = new RedisStore(REDIS_URL);
  // The store refuses commands until connected: ping until it answers, bounded (no Redis → false).
  const ok = await vi
    .waitFor(async () => expect(await probe.ping()).toBe(true), { timeout: 2_000, interval: 20 })
    .then(
      () => true,
      () => false,
    );
  await probe.close();
  return ok;
})();

beforeAll(async () => {
  db = await openTestDb();
  redis = new RedisStore(REDIS_URL);
});
afterAll(async () => {
  await redis.close();
  await db.dispose();
});

const stores: [string, () => RateLimitStore, boolean][] = [
  ["memory", () => new MemoryStore(), true],
  ["postgres", () => new PostgresStore(db.db), true],
  ["redis", () => redis, redisUp],
];

const uniqueKey = () => `test:${randomBytes(6).toString("hex")}`;

describe.each(stores)("%s sliding log", (_name, make, available) => {
  it.runIf(available)("admits exactly 100 in 60 s, then says when the oldest expires", async () => {
    const store = make();
    const key = uniqueKey();
    for (let i = 0; i < 100; i++) {
      const d = await store.hit(key, 100, 60_000, T0 + i * 100);
      expect(d).toEqual({ allowed: true, remaining: 99 - i, resetSeconds: i === 99 ? 51 : 0 });
    }
    expect(await store.hit(key, 100, 60_000, T0 + 10_000)).toEqual({ allowed: false, remaining: 0, resetSeconds: 50 });
    // At T0 + 60 s the first hit (T0) leaves the window: one slot, and only one.
    expect((await store.hit(key, 100, 60_000, T0 + 60_000)).allowed).toBe(true);
    expect((await store.hit(key, 100, 60_000, T0 + 60_050)).allowed).toBe(false);
    expect((await store.hit(key, 100, 60_000, T0 + 60_100)).allowed).toBe(true);
  });

  it.runIf(available)("no burst across a window edge: 100 at 59.9 s leave nothing free at 60 s", async () => {
    const store = make();
    const key = uniqueKey();
    for (let i = 0; i < 100; i++) expect((await store.hit(key, 100, 60_000, T0 + 59_900)).allowed).toBe(true);
    // A fixed one-minute window would reset at T0 + 60 s and admit 100 more here.
    expect((await store.hit(key, 100, 60_000, T0 + 60_000)).allowed).toBe(false);
    expect((await store.hit(key, 100, 60_000, T0 + 119_899)).allowed).toBe(false);
    expect((await store.hit(key, 100, 60_000, T0 + 119_900)).allowed).toBe(true);
  });

  it.runIf(available)("150 concurrent requests: exactly 100 admitted", async () => {
    const store = make();
    const key = uniqueKey();
    const decisions = await Promise.all(Array.from({ length: 150 }, (_, i) => store.hit(key, 100, 60_000, T0 + i)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
  });

  it.runIf(available)("concurrent requests are decided in arrival order, as one at a time would be", async () => {
    const store = make();
    const key = uniqueKey();
    const decisions = await Promise.all(Array.from({ length: 120 }, (_, i) => store.hit(key, 100, 60_000, T0 + i)));
    expect(decisions).toEqual(
      Array.from({ length: 120 }, (_, i) =>
        i < 100
          ? { allowed: true, remaining: 99 - i, resetSeconds: i === 99 ? 60 : 0 }
          : { allowed: false, remaining: 0, resetSeconds: 60 },
      ),
    );
  });
});

describe.each(stores)("%s store: release", (_name, make, available) => {
  it.runIf(available)("takes back one allowed hit of that time, and nothing else", async () => {
    const store = make();
    const key = uniqueKey();
    for (const at of [T0, T0 + 5, T0 + 5, T0 + 9]) expect((await store.hit(key, 4, 60_000, at)).allowed).toBe(true);
    expect((await store.hit(key, 4, 60_000, T0 + 10)).allowed).toBe(false);
    await store.release(key, T0 + 5);
    await store.release(key, T0 + 7); // no hit at that time: nothing changes
    await store.release(uniqueKey(), T0); // no such key: nothing happens
    expect(await logSize(store, key, 60_000, T0 + 10)).toEqual({ size: 3, resetSeconds: 60 });
    expect(await store.hit(key, 4, 60_000, T0 + 10)).toEqual({ allowed: true, remaining: 0, resetSeconds: 60 });
    // The oldest hit (T0) is still there: released was one of the two at T0 + 5.
    expect(await logSize(store, key, 60_000, T0 + 59_999)).toEqual({ size: 4, resetSeconds: 1 });
    expect(await logSize(store, key, 60_000, T0 + 60_005)).toEqual({ size: 2, resetSeconds: 1 });
  });
});

describe("postgres store shared by two processes", () => {
  it("150 concurrent requests through two stores (two pools on one database): exactly 100 admitted", async () => {
    const second = POSTGRES_URL
      ? await openDatabase({ url: POSTGRES_URL, schema: await schemaOf(db), poolSize: 3 })
      : db;
    try {
      const stores = [new PostgresStore(db.db), new PostgresStore(second.db)];
      const key = uniqueKey();
      const decisions = await Promise.all(
        Array.from({ length: 150 }, (_, i) => stores[i % 2]!.hit(key, 100, 60_000, T0 + i)),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
      expect((await stores[0]!.hit(key, 100, 60_000, T0 + 1000)).allowed).toBe(false);
    } finally {
      if (second !== db) await second.close();
    }
  });
});

describe("failover from Redis to PostgreSQL", () => {
  it("answers from PostgreSQL, exactly, when Redis is unreachable", async () => {
    const dead = new RedisStore("redis://127.0.0.1:1");
    const warnings: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
    const store = new FailoverStore(dead, new PostgresStore(db.db), logger);
    const key = uniqueKey();
    const decisions = await Promise.all(Array.from({ length: 101 }, (_, i) => store.hit(key, 100, 60_000, T0 + i)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
    expect(store.degraded).toBe(true);
    expect(warnings.filter((w) => w.includes("Redis unreachable"))).toHaveLength(1);
    await dead.close();
  });
});

describe("postgres store: the key version read in the hit's statement", () => {
  it("is api_key_version as the statement saw it, and moves when a key changes", async () => {
    const store = new PostgresStore(db.db);
    const read = async () =>
      String((await sql<{ version: string }>`SELECT version FROM api_key_version`.execute(db.db)).rows[0]!.version);
    const first = await store.hitReadingKeyVersion(uniqueKey(), 100, 60_000, T0);
    expect(first).toEqual({ decision: { allowed: true, remaining: 99, resetSeconds: 0 }, keyVersion: await read() });
    await sql`UPDATE api_key_version SET version = version + 1`.execute(db.db);
    const second = await store.hitReadingKeyVersion(uniqueKey(), 100, 60_000, T0);
    expect(second.keyVersion).toBe(await read());
    expect(second.keyVersion).not.toBe(first.keyVersion);
  });
});

describe("MemoryStore.hitNow (admission without a promise)", () => {
  it("decides as `hit` does, on the same log", async () => {
    const store = new MemoryStore();
    expect(store.hitNow("k", 2, 60_000, T0)).toEqual({ allowed: true, remaining: 1, resetSeconds: 0 });
    expect(await store.hit("k", 2, 60_000, T0 + 1)).toEqual({ allowed: true, remaining: 0, resetSeconds: 60 });
    expect(store.hitNow("k", 2, 60_000, T0 + 2)).toEqual({ allowed: false, remaining: 0, resetSeconds: 60 });
    expect(store.hitNow("k", 2, 60_000, T0 + 60_000)).toEqual({ allowed: true, remaining: 0, resetSeconds: 1 });
  });
});
