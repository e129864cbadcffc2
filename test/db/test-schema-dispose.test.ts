import { sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openTestDb, POSTGRES_URL } from "../harness.js";

/**
 * A test's background work can outlive the test (a worker stopped with a short timeout still records
 * its delivery attempt). Two CI runs went red when such a straggler's transaction and the harness's
 * DROP SCHEMA … CASCADE locked the same tables in opposite orders: PostgreSQL broke the deadlock by
 * cancelling the DROP. Disposing a test database must survive that, whichever file it happens in.
 */
describe.skipIf(!POSTGRES_URL)("disposing a test's PostgreSQL schema", () => {
  it("drops the schema even when a straggling transaction deadlocks the first DROP", async () => {
    const db = await openTestDb();
    const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db.db);
    const schema = rows[0]!.schema;
    const straggler = new pg.Client({ connectionString: POSTGRES_URL });
    const watcher = new pg.Client({ connectionString: POSTGRES_URL });
    await straggler.connect();
    await watcher.connect();
    try {
      await straggler.query("BEGIN");
      await straggler.query(`LOCK TABLE ${schema}.webhook_deliveries IN ROW EXCLUSIVE MODE`);
      const disposed = db.dispose().then(
        () => "dropped",
        (err: Error) => `failed: ${err.message}`,
      );
      // Wait until the DROP holds some of the schema's tables and waits for the straggler's.
      const held = await waitFor(async () => {
        const { rows: locks } = await watcher.query<{ table: string }>(
          `SELECT c.relname AS table
             FROM pg_locks l
             JOIN pg_class c ON c.oid = l.relation
             JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND l.granted AND l.mode = 'AccessExclusiveLock' AND c.relkind = 'r'
              AND l.pid <> pg_backend_pid()
              AND EXISTS (SELECT 1 FROM pg_locks w WHERE w.pid = l.pid AND NOT w.granted)`,
          [schema],
        );
        return locks.find((l) => l.table !== "webhook_deliveries")?.table;
      });
      // The straggler now needs a table the DROP holds: a deadlock. PostgreSQL ends it by cancelling
      // whichever of the two runs the deadlock check first: usually the DROP (it has waited longest), so
      // the straggler's statement goes through; under load sometimes the straggler. Either way the
      // schema must end up dropped.
      await straggler.query(`LOCK TABLE ${schema}.${held} IN ACCESS SHARE MODE`).catch((err: Error) => {
        if (!/deadlock detected/.test(err.message)) throw err;
      });
      await straggler.query("ROLLBACK");
      expect(await disposed).toBe("dropped");
      const { rows: left } = await watcher.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
      expect(left).toEqual([]);
    } finally {
      await straggler.end();
      await watcher.end();
    }
  }, 30_000);
});

async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("the DROP never waited for the straggler's table");
}
