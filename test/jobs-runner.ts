import pino from "pino";
import { expect, vi } from "vitest";
import type { Db } from "../src/db/schema.js";
import { type JobHandler, jobsSource } from "../src/jobs/jobs-source.js";
import { Worker } from "../src/jobs/worker.js";

/** Runs a real job worker with `handlers` until no job is queued or running, then stops it. */
export async function runJobs(db: Db, handlers: Record<string, JobHandler>, timeout = 10_000): Promise<void> {
  const logger = pino({ level: "silent" });
  const worker = new Worker({ sources: [jobsSource({ db, handlers, logger }) as never], logger, pollMs: 20 });
  worker.start();
  await vi.waitFor(
    async () => {
      const open = await db.selectFrom("jobs").select("id").where("status", "in", ["queued", "running"]).execute();
      expect(open).toEqual([]);
    },
    { timeout, interval: timeout > 10_000 ? 100 : 20 },
  );
  await worker.stop(5000);
}
