import type pino from "pino";
import type { Config } from "../config.js";
import type { Db } from "../db/schema.js";
import { FailoverStore } from "./failover-store.js";
import type { RateLimitStore } from "./limiter.js";
import { PostgresStore } from "./postgres-store.js";
import { RedisStore } from "./redis-store.js";
import { MemoryStore } from "./stores.js";

/**
 * Where the sliding logs live (API.md §0): Redis when configured (falling back to the database
 * while it is away), else the database shared by every process, and memory only for the embedded
 * single-process deployment.
 */
export function createRateLimitStore(
  config: Pick<Config, "redisUrl" | "databaseUrl">,
  db: Db,
  logger: pino.Logger,
): RateLimitStore {
  if (config.redisUrl) return new FailoverStore(new RedisStore(config.redisUrl), new PostgresStore(db), logger);
  if (config.databaseUrl) return new PostgresStore(db);
  return new MemoryStore();
}
