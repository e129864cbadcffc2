import { join } from "node:path";
import type { Transaction } from "kysely";
import { buildEarlierAssets } from "./accounting/index.js";
import type { Config } from "./config.js";
import { type Database, openDatabase } from "./db/connect.js";
import { acquireDataDirLock, type DataDirLock } from "./db/data-dir-lock.js";
import { restrictToOwner } from "./db/data-dir-mode.js";
import { describeConnectionError, isConnectionError } from "./db/errors.js";
import { type MigrateResult, migrate } from "./db/migrate.js";
import type { DB } from "./db/schema.js";

/** An open database for this deployment: PostgreSQL, or the embedded PGlite under CTS_DATA_DIR (locked). */
export interface Deployment {
  database: Database;
  lock: DataDirLock | undefined;
  embedded: boolean;
  close(): Promise<void>;
}

export function embeddedPath(config: Pick<Config, "dataDir">): string {
  return join(config.dataDir, "pgdata");
}

/** Told when the database connection is lost, and while start-up waits for it. */
export type ConnectionWarning = (message: string, reason: string) => void;

/** Start-up waits this long, in all, for a PostgreSQL that is restarting or not up yet. */
const START_WAIT_DELAYS_MS = [250, 500, 1000, 2000, 4000, 5000, 5000, 5000, 5000, 5000, 5000, 5000, 5000];

async function migrateWhenReachable<T>(
  database: Database,
  inLock: ((tx: Transaction<DB>) => Promise<T>) | undefined,
  warn: ConnectionWarning,
): Promise<MigrateResult<T>> {
  for (const delayMs of START_WAIT_DELAYS_MS) {
    try {
      return await migrate(database.db, inLock);
    } catch (err) {
      if (database.kind !== "postgres" || !isConnectionError(err)) throw err;
      warn(`database unreachable at start-up; retrying in ${delayMs} ms`, describeConnectionError(err));
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
  return migrate(database.db, inLock);
}

/**
 * Opens and migrates the database. `inLock` runs inside the migration transaction, under the
 * advisory lock, so work that must happen once per deployment (the bootstrap key) happens once.
 */
export async function openDeployment<T>(
  config: Config,
  inLock?: (tx: Transaction<DB>) => Promise<T>,
  warn: ConnectionWarning = () => {},
): Promise<{ deployment: Deployment; extra: T | undefined }> {
  const lock = config.databaseUrl ? undefined : acquireDataDirLock(config.dataDir);
  try {
    const database = await openDatabase(
      config.databaseUrl
        ? {
            url: config.databaseUrl,
            onConnectionLost: (reason) => warn("database connection lost; the next query reconnects", reason),
          }
        : { dataDir: embeddedPath(config) },
    );
    const { extra } = await migrateWhenReachable(database, inLock, warn).catch(async (err) => {
      await database.close();
      throw err;
    });
    // API.md §17: the deals approved before accounting existed get their assets, once per database.
    await database.db
      .transaction()
      .execute((tx) => buildEarlierAssets(tx, new Date()))
      .catch(async (err) => {
        await database.close();
        throw err;
      });
    if (lock) restrictToOwner(config.dataDir);
    const deployment: Deployment = {
      database,
      lock,
      embedded: lock !== undefined,
      close: async () => {
        await database.close();
        try {
          if (lock) restrictToOwner(config.dataDir);
        } finally {
          lock?.release();
        }
      },
    };
    return { deployment, extra };
  } catch (err) {
    lock?.release();
    throw err;
  }
}

/** Owner CLI without a running embedded server: open the database ourselves, run, close. */
export async function withOwnerDeployment<T>(config: Config, fn: (deployment: Deployment) => Promise<T>): Promise<T> {
  const { deployment } = await openDeployment(config);
  try {
    return await fn(deployment);
  } finally {
    await deployment.close();
  }
}
