import type pg from "pg";
import type pino from "pino";
import type { Database } from "../db/connect.js";
import { DELIVERY_CHANNEL } from "./deliveries-repository.js";

const FIRST_RECONNECT_MS = 250;
const MAX_RECONNECT_MS = 10_000;

/**
 * Calls `wake` whenever a committed transaction queued deliveries (the fan-out trigger and the test
 * and retry endpoints NOTIFY), so a worker claims within milliseconds instead of at its next poll.
 * Polling still runs: a lost notification only costs latency. Returns a function that stops listening.
 */
export async function listenForDeliveries(
  database: Database,
  databaseUrl: string | undefined,
  wake: () => void,
  logger: pino.Logger,
): Promise<() => Promise<void>> {
  if (database.pglite) {
    const pglite = database.pglite;
    // Holding the pool's only connection, so LISTEN cannot land inside someone else's transaction.
    const unlisten = await database.db.connection().execute(() => pglite.listen(DELIVERY_CHANNEL, wake));
    return unlisten;
  }
  if (!databaseUrl) return async () => {};
  return listenPostgres(databaseUrl, wake, logger);
}

function listenPostgres(url: string, wake: () => void, logger: pino.Logger): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | undefined;
  // Doubles while the database stays away, back to the first delay once a LISTEN succeeds.
  let delayMs = FIRST_RECONNECT_MS;
  const connect = async () => {
    if (stopped) return;
    // pg loads here, not at start-up: embedded deployments never need it (its import costs ~0.3 s).
    const { default: driver } = await import("pg");
    if (stopped) return;
    const next = new driver.Client({ connectionString: url });
    client = next;
    let failed = false;
    const fail = (err: unknown) => {
      if (failed || stopped) return;
      failed = true;
      logger.warn({ err, retry_ms: delayMs }, "webhook notification listener lost its connection; reconnecting");
      void next.end().catch(() => {});
      setTimeout(connect, delayMs).unref();
      delayMs = Math.min(delayMs * 2, MAX_RECONNECT_MS);
    };
    next.on("notification", wake);
    next.on("error", fail);
    next.on("end", () => fail(new Error("the connection ended")));
    try {
      await next.connect();
      await next.query(`LISTEN ${DELIVERY_CHANNEL}`);
      delayMs = FIRST_RECONNECT_MS;
      // Notifications sent while it was away are lost: claim now rather than at the next poll.
      wake();
    } catch (err) {
      fail(err);
    }
  };
  void connect();
  return async () => {
    stopped = true;
    await client?.end().catch(() => {});
  };
}
