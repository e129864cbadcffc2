import { sql } from "kysely";
import type { Db } from "../db/schema.js";

/** One round trip that needs the database to answer (`GET /readyz`). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`SELECT 1`.execute(db);
}
