import { sql } from "kysely";
import type pino from "pino";
import type { Kdb } from "../db/connect.js";
import { jobsProcessed } from "../metrics.js";
import type { JobRow } from "./queue.js";
import type { WorkSource } from "./worker.js";

const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 3;
const RETRY_DELAY_MS = 5_000;

export interface JobTools {
  db: Kdb;
  /** Records progress and extends the lease: call it between batches of long work. */
  progress(done: number): Promise<void>;
  now(): Date;
}

export type JobHandler = (job: JobRow, tools: JobTools) => Promise<void>;

export interface JobsSourceOptions {
  db: Kdb;
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
  const mine = (id: string, workerId: string) =>
    db.updateTable("jobs").where("id", "=", id).where("claimed_by", "=", workerId).where("status", "=", "running");

  return {
    name: "jobs",
    async claim(workerId, limit, now) {
      if (kinds.length === 0) return [];
      if (!orphansReleased) {
        const taken = await releaseRunning(db);
        if (taken > 0) logger.warn({ jobs: taken }, "took back job leases of a process that died");
        orphansReleased = true;
      }
      const due = db
        .selectFrom("jobs")
        .select("id")
        .where("kind", "in", kinds)
        .where((eb) =>
          eb.or([
            eb.and([eb("status", "=", "queued"), eb("run_at", "<=", now)]),
            eb.and([eb("status", "=", "running"), eb("locked_until", "<", now)]),
          ]),
        )
        .orderBy("run_at")
        .orderBy("id")
        .limit(limit)
        .forUpdate()
        .skipLocked();
      return db
        .updateTable("jobs")
        .set((eb) => ({
          status: "running",
          claimed_by: workerId,
          locked_until: new Date(now.getTime() + LEASE_MS),
          attempts: eb("attempts", "+", 1),
          started_at: eb.fn.coalesce("started_at", sql<Date>`${now}`),
        }))
        .where("id", "in", due)
        .returningAll()
        .execute();
    },

    async run(job, workerId) {
      const handler = handlers[job.kind]!;
      const tools: JobTools = {
        db,
        now: clock,
        progress: async (done) => {
          await mine(job.id, workerId)
            .set({ done, locked_until: new Date(clock().getTime() + LEASE_MS) })
            .execute();
        },
      };
      try {
        await handler(job, tools);
        await mine(job.id, workerId)
          .set({ status: "succeeded", locked_until: null, finished_at: clock(), error: null })
          .execute();
        jobsProcessed.inc({ kind: job.kind, status: "succeeded" });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const retry = job.attempts < MAX_ATTEMPTS;
        jobsProcessed.inc({ kind: job.kind, status: retry ? "retried" : "failed" });
        logger.error({ err, job_id: job.id, kind: job.kind, attempt: job.attempts, retry }, "job failed");
        await mine(job.id, workerId)
          .set(
            retry
              ? {
                  status: "queued",
                  claimed_by: null,
                  locked_until: null,
                  run_at: new Date(clock().getTime() + RETRY_DELAY_MS),
                  error: message,
                }
              : { status: "failed", locked_until: null, finished_at: clock(), error: message },
          )
          .execute();
      }
    },

    async release(workerId) {
      await releaseRunning(db, workerId);
    },
  };
}

/**
 * Running jobs (of one worker, or of every worker) back to the queue, due at once. At most one retention
 * run may wait (`jobs_one_queued_retention`): a running one whose next run is already queued (start-up
 * queues one) ends as failed instead, or the UPDATE would violate the index and the worker, failing that
 * claim forever, would deliver nothing again (seen after a SIGKILL during retention).
 */
async function releaseRunning(db: Kdb, workerId?: string): Promise<number> {
  const claimedBy = workerId === undefined ? sql`TRUE` : sql`claimed_by = ${workerId}`;
  const superseded = await sql`
    UPDATE jobs SET status = 'failed', claimed_by = NULL, locked_until = NULL, finished_at = now(),
      error = 'its process stopped during the run; the retention run already queued does its work'
    WHERE status = 'running' AND ${claimedBy} AND kind = 'retention'
      AND EXISTS (SELECT 1 FROM jobs q WHERE q.kind = 'retention' AND q.status = 'queued')`.execute(db);
  const released = await sql`
    UPDATE jobs SET status = 'queued', claimed_by = NULL, locked_until = NULL
    WHERE status = 'running' AND ${claimedBy}`.execute(db);
  return Number(superseded.numAffectedRows ?? 0) + Number(released.numAffectedRows ?? 0);
}
