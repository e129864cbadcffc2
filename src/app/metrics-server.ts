import { createServer, type Server } from "node:http";
import { sql } from "kysely";
import type { Database } from "../db/connect.js";
import { gaugeFrom, registry } from "../metrics.js";

/** Gauges read from the database at scrape time: queue depths and pool pressure. Returns their removal. */
export function registerDatabaseGauges(database: Database): () => void {
  const db = database.db;
  gaugeFrom(
    "cts_jobs",
    "Background jobs not finished, by status",
    async () => {
      const r = await sql<{ status: string; n: string }>`
      SELECT status, count(*) AS n FROM jobs WHERE status IN ('queued', 'running') GROUP BY status`.execute(db);
      return { queued: 0, running: 0, ...Object.fromEntries(r.rows.map((row) => [row.status, Number(row.n)])) };
    },
    "state",
  );
  gaugeFrom("cts_outbox_depth", "Webhook deliveries waiting to be sent", async () => {
    const r = await sql<{ n: string }>`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`.execute(
      db,
    );
    return Number(r.rows[0]?.n ?? 0);
  });
  gaugeFrom("cts_db_pool_waiting", "Queries waiting for a database connection", async () => database.waitingCount());
  return () => {
    for (const name of ["cts_jobs", "cts_outbox_depth", "cts_db_pool_waiting"]) registry.removeSingleMetric(name);
  };
}

/** `/metrics` on CTS_METRICS_PORT, bound to CTS_HOST: never on the API port, never public by default. */
export async function listenMetrics(host: string, port: number): Promise<Server> {
  const server = createServer(async (req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found: metrics are at /metrics\n");
      return;
    }
    try {
      const body = await registry.metrics();
      res.writeHead(200, { "content-type": registry.contentType }).end(body);
    } catch {
      res.writeHead(500, { "content-type": "text/plain" }).end("metrics collection failed\n");
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
