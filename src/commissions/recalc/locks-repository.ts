import { sql } from "kysely";
import type { Tx } from "../../context.js";

// The advisory lock every recalculation takes first: shared by changes that touch only their own
// buckets, exclusive by SPIFF changes (which reach every bucket in their window).
const SPIFFS_LOCK = sql`7150421, 1`;

export async function lockSpiffs(tx: Tx, mode: "shared" | "exclusive"): Promise<void> {
  if (mode === "exclusive") await sql`SELECT pg_advisory_xact_lock(${SPIFFS_LOCK})`.execute(tx);
  else await sql`SELECT pg_advisory_xact_lock_shared(${SPIFFS_LOCK})`.execute(tx);
}
