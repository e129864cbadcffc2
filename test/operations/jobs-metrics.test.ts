import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenMetrics } from "../../src/app/metrics-server.js";
import { jobsSource } from "../../src/jobs/jobs-source.js";
import { enqueueJob } from "../../src/jobs/queue.js";
import { registry } from "../../src/metrics.js";
import { openTestDb, type TestDb } from "../harness.js";

const logger = pino({ level: "silent" });
let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
  // The registry is the process's: counts from files run before this one in the worker start at zero.
  registry.resetMetrics();
});
afterAll(async () => t.dispose());

async function scrape(): Promise<string> {
  const server = await listenMetrics("127.0.0.1", 0);
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`);
    return await res.text();
  } finally {
    server.close();
  }
}

describe("#13.27 cts_jobs_finished_total counts every finished job by outcome", () => {
  it("succeeded, retried and failed each count once per attempt outcome", async () => {
    const clock = { ms: Date.now() };
    const source = jobsSource({
      db: t.db,
      handlers: {
        "metric-ok": async () => {},
        "metric-bad": async () => {
          throw new Error("no");
        },
      },
      logger,
      clock: () => new Date(clock.ms),
    });
    await t.db.transaction().execute(async (tx) => {
      await enqueueJob(tx, new Date(clock.ms), { kind: "metric-ok", payload: {} });
      await enqueueJob(tx, new Date(clock.ms), { kind: "metric-ok", payload: {} });
      await enqueueJob(tx, new Date(clock.ms), { kind: "metric-bad", payload: {} });
    });
    for (let round = 0; round < 3; round++) {
      for (const job of await source.claim("w1", 10, new Date(clock.ms))) await source.run(job, "w1");
      clock.ms += 10_000; // past the retry delay
    }
    const lines = (await scrape()).split("\n").filter((l) => l.startsWith("cts_jobs_finished_total{"));
    expect(lines.sort()).toEqual([
      'cts_jobs_finished_total{kind="metric-bad",status="failed"} 1',
      'cts_jobs_finished_total{kind="metric-bad",status="retried"} 2',
      'cts_jobs_finished_total{kind="metric-ok",status="succeeded"} 2',
    ]);
  });
});
