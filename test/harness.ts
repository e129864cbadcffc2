import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { sql } from "kysely";
import pg from "pg";
import { inject } from "vitest";
import { createKey } from "../src/api-keys/index.js";
import { type AppOptions, type BuiltApp, buildApp } from "../src/app/build.js";
import { makeCtx, OWNER, type Scope } from "../src/context.js";
import { type Database, openDatabase } from "../src/db/connect.js";
import { migrate } from "../src/db/migrate.js";
import type { WebhookSettings } from "../src/webhooks/index.js";

export const TEST_ENV = "test";
export const POSTGRES_URL = process.env.TEST_DATABASE_URL || undefined;
/** A fixed key encrypting webhook secrets in test apps (32 bytes). */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7);

export interface TestDb extends Database {
  /** Drops what the test created (its PostgreSQL schema); PGlite copies just vanish. */
  dispose(): Promise<void>;
}

/** A migrated database of this test file's own: a PGlite copy of the template, or a fresh PostgreSQL schema. */
export async function openTestDb(): Promise<TestDb> {
  if (!POSTGRES_URL) {
    const template = readFileSync(inject("pgliteTemplate"));
    const database = await openDatabase({ loadDataDir: new Blob([template]) });
    return { ...database, dispose: () => database.close() };
  }
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const database = await openDatabase({ url: POSTGRES_URL, schema, poolSize: 5 });
  await migrate(database.db);
  return {
    ...database,
    dispose: async () => {
      await dropSchema(database, schema);
      await database.close();
    },
  };
}

/**
 * Work a test started can outlive it (a worker stopped with a short timeout still records its attempt);
 * when its transaction and the DROP lock tables in opposite orders, PostgreSQL cancels the DROP with a
 * deadlock error. The straggler then finishes, so dropping again succeeds.
 */
async function dropSchema(database: Database, schema: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await sql.raw(`DROP SCHEMA ${schema} CASCADE`).execute(database.db);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== "40P01" || attempt === 5) throw err;
    }
  }
}

/** A clock tests can move: `clock.advance(61_000)`. */
export class TestClock {
  constructor(public ms: number = Date.parse("2026-11-22T10:00:00.000Z")) {}
  now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestApp extends BuiltApp {
  db: TestDb;
  clock: TestClock | undefined;
  /** A new key of that scope, raw key included. */
  key(scope: Scope, name?: string): Promise<{ id: string; key: string }>;
  /** The owner (CLI) acting directly on services. */
  ownerCtx(): ReturnType<typeof makeCtx>;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    clock?: TestClock;
    env?: string;
    webhooks?: Partial<WebhookSettings>;
    publicUrl?: string;
    trustProxy?: AppOptions["trustProxy"];
    /** Listen on 127.0.0.1, port 0 (requests still go through `inject`): the origin is then that address. */
    listen?: boolean;
    requestTimeoutSeconds?: number;
    /** Email notifications on (invitations and resets queued), links on this origin. */
    mailOrigin?: string;
    /** POST /auth/password-reset's answer floor, on the test's clock and timer. */
    resetAnswerFloor?: AppOptions["resetAnswerFloor"];
  } = {},
): Promise<TestApp> {
  const db = await openTestDb();
  const env = options.env ?? TEST_ENV;
  const webhooks = { secretKey: TEST_SECRET_KEY, allowHosts: [], allowHttp: false, ...options.webhooks };
  const built = await buildApp({
    db: db.db,
    pglite: db.pglite,
    env,
    webhooks,
    publicUrl: options.publicUrl,
    ...(options.mailOrigin ? { mail: { publicUrl: options.mailOrigin, secretKey: TEST_SECRET_KEY } } : {}),
    ...(options.trustProxy !== undefined && { trustProxy: options.trustProxy }),
    ...(options.requestTimeoutSeconds ? { requestTimeoutSeconds: options.requestTimeoutSeconds } : {}),
    ...(options.clock ? { clock: options.clock.now } : {}),
    ...(options.resetAnswerFloor ? { resetAnswerFloor: options.resetAnswerFloor } : {}),
  });
  if (options.listen) await built.app.listen({ host: "127.0.0.1", port: 0 });
  const ownerCtx = () => makeCtx(db.db, env, OWNER, null, options.clock?.now() ?? new Date());
  return {
    ...built,
    db,
    clock: options.clock,
    ownerCtx,
    key: async (scope, name = `${scope} key`) => {
      const created = await createKey(ownerCtx(), { name, scope });
      return { id: created.id, key: created.key };
    },
    close: async () => {
      await built.app.close();
      await db.dispose();
    },
  };
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}
