import type pino from "pino";
import type { Db } from "../db/schema.js";
import { jobsProcessed } from "../metrics.js";
import { claimDueJobs, type JobRow, releaseRunning, updateHeldJob } from "./repository.js";
import type { WorkSource } from "./worker.js";

const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 3;
const RETRY_DELAY_MS = 5_000;

export interface JobTools {
  db: Db;
  /** Records progress and extends the lease: call it between batches of long work. */
  progress(done: number): Promise<void>;
  now(): Date;
}

export type JobHandler = (job: JobRow, tools: JobTools) => Promise<void>;

export interface JobsSourceOptions {
  db: Db;
  handlers: Record<string, JobHandler>;
  logger: pino.Logger;
  clock?: () => Date;
  /**
   * This process is the only one that can hold leases (embedded mode: the data-dir lock), so any
   * job found running at start-up was leased by a process that died: it is queued again at once.
   */
  exclusive?: boolean;
}

/** The `jobs` table as a work source; handlers are registered by kind by whoever starts the worker. */
export function jobsSource({
  db,
  handlers,
  logger,
  clock = () => new Date(),
  exclusive = false,
}: JobsSourceOptions): WorkSource<JobRow> {
  const kinds = Object.keys(handlers);
  let orphansReleased = !exclusive;

  return {
    name: "jobs",
    async claim(workerId, limit, now) {
      if (kinds.length === 0) return [];
      if (!orphansReleased) {
        const taken = await releaseRunning(db);
        if (taken > 0) logger.warn({ jobs: taken }, "took back job leases of a process that died");
        orphansReleased = true;
      }
      return claimDueJobs(db, kinds, workerId, limit, now, new Date(now.getTime() + LEASE_MS));
    },

    async run(job, workerId) {
      const handler = handlers[job.kind]!;
      const tools: JobTools = {
        db,
        now: clock,
        progress: async (done) => {
          await updateHeldJob(db, job.id, workerId, { done, locked_until: new Date(clock().getTime() + LEASE_MS) });
        },
      };
      try {
        await handler(job, tools);
        await updateHeldJob(db, job.id, workerId, {
          status: "succeeded",
          locked_until: null,
          finished_at: clock(),
          error: null,
        });
        jobsProcessed.inc({ kind: job.kind, status: "succeeded" });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const retry = job.attempts < MAX_ATTEMPTS;
        jobsProcessed.inc({ kind: job.kind, status: retry ? "retried" : "failed" });
        logger.error({ err, job_id: job.id, kind: job.kind, attempt: job.attempts, retry }, "job failed");
        await updateHeldJob(
          db,
          job.id,
          workerId,
          retry
            ? {
                status: "queued",
                claimed_by: null,
                locked_until: null,
                run_at: new Date(clock().getTime() + RETRY_DELAY_MS),
                error: message,
              }
            : { status: "failed", locked_until: null, finished_at: clock(), error: message },
        );
      }
    },

    async release(workerId) {
      await releaseRunning(db, workerId);
    },
  };
}
