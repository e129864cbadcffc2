import { createServer, type Server } from "node:http";
import type { Database } from "../db/connect.js";
import { gaugeFrom, registry } from "../metrics.js";
import { type QueueCounts, readQueueCounts } from "./metrics-repository.js";

const GAUGES = ["cts_jobs", "cts_outbox_depth", "cts_db_pool_waiting"];

/**
 * One scrape's reading, shared by its gauges: the pool's queue is sampled before this scrape's own query
 * joins it (prom-client collects every gauge at once, so the counts' queries were counted as waiting).
 */
function scrapeReader(database: Database) {
  let current: { waiting: number; counts: Promise<QueueCounts> } | undefined;
  return () => {
    if (!current) {
      const waiting = database.waitingCount();
      const counts = readQueueCounts(database.db);
      current = { waiting, counts };
      counts
        .finally(() => {
          current = undefined;
        })
        .catch(() => {});
    }
    return current;
  };
}

/** Gauges read from the database at scrape time: queue depths and pool pressure. Returns their removal. */
export function registerDatabaseGauges(database: Database): () => void {
  const reading = scrapeReader(database);
  gaugeFrom("cts_jobs", "Background jobs not finished, by status", async () => (await reading().counts).jobs, "state");
  gaugeFrom("cts_outbox_depth", "Webhook deliveries waiting to be sent", async () => (await reading().counts).outbox);
  gaugeFrom("cts_db_pool_waiting", "Queries waiting for a database connection", async () => reading().waiting);
  return () => {
    for (const name of GAUGES) registry.removeSingleMetric(name);
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
