import { sql } from "kysely";
import type { Db } from "../db/schema.js";

/** The database's clock, to compare with this machine's (rate limits and leases use time). */
export async function readDatabaseTime(db: Db): Promise<Date> {
  const r = await sql<{ now: Date }>`SELECT now() AS now`.execute(db);
  return new Date(r.rows[0]!.now);
}
