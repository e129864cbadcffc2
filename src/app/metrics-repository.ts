import { sql } from "kysely";
import type { Db } from "../db/schema.js";

export interface QueueCounts {
  jobs: { queued: number; running: number };
  outbox: number;
}

/** The jobs not finished, by status, and the webhook deliveries waiting: one statement per scrape. */
export async function readQueueCounts(db: Db): Promise<QueueCounts> {
  const r = await sql<{ queued: string; running: string; outbox: string }>`
    SELECT count(*) FILTER (WHERE status = 'queued') AS queued, count(*) FILTER (WHERE status = 'running') AS running,
      (SELECT count(*) FROM webhook_deliveries WHERE status = 'pending') AS outbox
    FROM jobs WHERE status IN ('queued', 'running')`.execute(db);
  const row = r.rows[0]!;
  return { jobs: { queued: Number(row.queued), running: Number(row.running) }, outbox: Number(row.outbox) };
}
