import type { Tx } from "../context.js";
import type { Db } from "../db/schema.js";
import * as repo from "./repository.js";

// Queuing background work and reading jobs: what the rest of the server calls (the SQL is repository.ts).
export type { Job, JobRow, NewJob } from "./repository.js";

/** Queues background work in the caller's transaction: it runs only if that transaction commits. */
export function enqueueJob(tx: Tx, now: Date, job: repo.NewJob): Promise<repo.Job> {
  return repo.insertJob(tx, now, job);
}

/**
 * Queues a job unless one that must wait alone is already queued (a partial unique index decides: one
 * retention run); true when it queued one.
 */
export function enqueueJobUnlessWaiting(db: Db, now: Date, job: repo.NewJob): Promise<boolean> {
  return repo.insertJobUnlessWaiting(db, now, job);
}

/** Stores a job's answer; the worker marks the job succeeded once its handler returns. */
export function recordJobResult(db: Db, id: string, result: Record<string, unknown>): Promise<void> {
  return repo.recordJobResult(db, id, result);
}

export function findJob(db: Db, id: string): Promise<repo.Job | undefined> {
  return repo.findJob(db, id);
}

/** One page of jobs, newest first (created_at desc, id desc), and how many match. */
export function listJobs(
  db: Db,
  filter: { status?: repo.Job["status"]; kind?: string },
  limit: number,
  offset: number,
): ReturnType<typeof repo.listJobRows> {
  return repo.listJobRows(db, filter, limit, offset);
}
