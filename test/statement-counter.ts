import type { CompiledQuery } from "kysely";
import type { Db } from "../src/db/schema.js";

/** What one call sent to the database, BEGIN and COMMIT included, in order. */
export interface SentStatements {
  sql: string[];
  /** Each statement's parameters, in the same order as `sql`. */
  parameters: (readonly unknown[])[];
  /** SELECTs from the `deals` table itself (FOR UPDATE included; a recalculation's joins through it are not). */
  dealReads: number;
  /** UPDATEs of the `deals` table. */
  dealWrites: number;
}

const READS_DEALS = /^\s*select\b[\s\S]*\bfrom "?deals"?(\s|$)/i;
const WRITES_DEALS = /\bupdate "?deals"?\s/i;

/**
 * Runs `fn` on a Kysely pinned to one connection whose every statement is recorded: Kysely sends
 * BEGIN/COMMIT through the same `executeQuery` as queries (its own logging wraps it the same way).
 */
export async function countStatements<T>(
  db: Db,
  fn: (counted: Db) => Promise<T>,
): Promise<{ result: T; sent: SentStatements }> {
  const sql: string[] = [];
  const parameters: (readonly unknown[])[] = [];
  const result = await db.connection().execute(async (pinned) => {
    let restore = () => {};
    await pinned.getExecutor().provideConnection(async (connection) => {
      const original = connection.executeQuery;
      const run = original.bind(connection);
      connection.executeQuery = (query: CompiledQuery) => {
        sql.push(query.sql);
        parameters.push(query.parameters);
        return run(query);
      };
      restore = () => {
        connection.executeQuery = original;
      };
    });
    try {
      return await fn(pinned);
    } finally {
      restore();
    }
  });
  const dealReads = sql.filter((s) => READS_DEALS.test(s)).length;
  const dealWrites = sql.filter((s) => WRITES_DEALS.test(s)).length;
  return { result, sent: { sql, parameters, dealReads, dealWrites } };
}
