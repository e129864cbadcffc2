import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import type { Redis } from "ioredis";
import { type Decision, decide, type RateLimitStore } from "./limiter.js";

// ioredis is loaded when a store is made (REDIS_URL set), not at every start-up: ~10 MB and 0.2 s saved.
const load = createRequire(import.meta.url);

// One round trip, atomic in Redis: drop expired hits, admit if under the limit, return the log's
// size and its oldest time (for RateLimit's `t` and Retry-After).
const SLIDING_LOG = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {allowed, count, oldest[2] or '-1'}
`;

// One member whose score is the hit's time, removed atomically (members are `<time>:<random>`).
const RELEASE = `
local hits = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], ARGV[1], 'LIMIT', 0, 1)
if hits[1] then redis.call('ZREM', KEYS[1], hits[1]) end
return 0
`;

export class RedisStore implements RateLimitStore {
  readonly redis: Redis;

  constructor(url: string) {
    // Fail fast instead of queueing while Redis is away: the failover store then answers from PostgreSQL.
    const { Redis: Client } = load("ioredis") as typeof import("ioredis");
    this.redis = new Client(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1000,
      commandTimeout: 1000,
      lazyConnect: false,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    this.redis.on("error", () => {});
    this.redis.defineCommand("ctsSlidingLog", { numberOfKeys: 1, lua: SLIDING_LOG });
    this.redis.defineCommand("ctsRelease", { numberOfKeys: 1, lua: RELEASE });
  }

  /** Waits (briefly) for a connection in progress, so the first requests after start do not fail over. */
  private async connected(): Promise<void> {
    if (this.redis.status === "ready") return;
    if (this.redis.status !== "connecting" && this.redis.status !== "connect" && this.redis.status !== "reconnecting") {
      throw new Error(`Redis is ${this.redis.status}`);
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error("Redis did not become ready in time")), 1000);
      const onReady = () => done();
      const done = (err?: Error) => {
        clearTimeout(timer);
        this.redis.off("ready", onReady);
        err ? reject(err) : resolve();
      };
      this.redis.once("ready", onReady);
    });
  }

  async hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<Decision> {
    await this.connected();
    const member = `${nowMs}:${randomBytes(6).toString("hex")}`;
    const run = (this.redis as unknown as Record<string, (...a: unknown[]) => Promise<[number, number, string]>>)
      .ctsSlidingLog!;
    const [allowed, count, oldest] = await run.call(this.redis, `cts:rl:${key}`, nowMs, windowMs, limit, member);
    // Only the size and the oldest entry matter to the decision; rebuild a log of that shape.
    const oldestMs = Number(oldest);
    const log = count > 0 ? [oldestMs, ...Array<number>(count - 1).fill(nowMs)] : [];
    return decide(log, limit, windowMs, nowMs, allowed === 1);
  }

  async release(key: string, nowMs: number): Promise<void> {
    await this.connected();
    const run = (this.redis as unknown as Record<string, (...a: unknown[]) => Promise<number>>).ctsRelease!;
    await run.call(this.redis, `cts:rl:${key}`, nowMs);
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === "PONG";
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
