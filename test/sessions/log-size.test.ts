import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { logSize, type RateLimitStore } from "../../src/rate-limit/limiter.js";
import { PostgresStore } from "../../src/rate-limit/postgres-store.js";
import { RedisStore } from "../../src/rate-limit/redis-store.js";
import { MemoryStore } from "../../src/rate-limit/stores.js";
import { openTestDb, type TestDb } from "../harness.js";

// The per-email sign-in limit looks at a log without adding to it (a hit with limit 0): every store
// must then report the log's size and never count the look.
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const T0 = Date.parse("2026-11-22T10:00:00.000Z");
const W = 15 * 60_000;
let db: TestDb;
let redis: RedisStore;
const redisUp = await (async () => {
  const probe = new RedisStore(REDIS_URL);
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

describe.each(stores)("logSize on the %s store", (_name, make, available) => {
  it.runIf(available)("reports the size and when the oldest leaves, and never counts itself", async () => {
    const store = make();
    const key = `test:${randomBytes(6).toString("hex")}`;
    expect(await logSize(store, key, W, T0)).toEqual({ size: 0, resetSeconds: 0 });
    for (let i = 0; i < 3; i++) await store.hit(key, 10, W, T0 + i * 1000);
    for (let i = 0; i < 5; i++)
      expect(await logSize(store, key, W, T0 + 60_000)).toEqual({ size: 3, resetSeconds: 840 });
    const next = await store.hit(key, 10, W, T0 + 60_000);
    expect(next).toEqual({ allowed: true, remaining: 6, resetSeconds: 0 });
    expect(await logSize(store, key, W, T0 + W)).toEqual({ size: 3, resetSeconds: 1 });
  });
});
