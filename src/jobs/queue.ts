import type { Selectable } from "kysely";
import type { Tx } from "../context.js";
import type { Kdb } from "../db/connect.js";
import type { JobsTable } from "../db/schema.js";
import { toIso } from "../http/date-fields.js";
import { newId } from "../ids.js";

export interface Job {
  id: string;
  kind: string;
  status: "queued" | "running" | "succeeded" | "failed";
  total: number | null;
  done: number;
  error: string | null;
  /** What a job that computes an answer (a large plan-change impact) found; null for the others. */
  result: Record<string, unknown> | null;
  created_at: string;
  finished_at: string | null;
}

export type JobRow = Selectable<JobsTable>;

export function toJob(row: JobRow): Job {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    total: row.total,
    done: row.done,
    error: row.error,
    result: row.result ?? null,
    created_at: toIso(row.created_at)!,
    finished_at: toIso(row.finished_at),
  };
}

export interface NewJob {
  kind: string;
  payload: Record<string, unknown>;
  /** Units of work, when known, so GET /jobs/{id} can show progress. */
  total?: number;
  runAt?: Date;
}

/** Queues background work in the caller's transaction: it runs only if that transaction commits. */
export async function enqueueJob(tx: Tx, now: Date, job: NewJob): Promise<Job> {
  const row = await tx
    .insertInto("jobs")
    .values({
      id: newId("job", now.getTime()),
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      total: job.total ?? null,
      run_at: job.runAt ?? now,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toJob(row);
}

export async function findJob(db: Kdb, id: string): Promise<Job | undefined> {
  const row = await db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toJob(row);
}

/** Stores a job's answer; the worker marks the job succeeded once its handler returns. */
export async function recordJobResult(db: Kdb, id: string, result: Record<string, unknown>): Promise<void> {
  await db
    .updateTable("jobs")
    .set({ result: JSON.stringify(result) })
    .where("id", "=", id)
    .execute();
}
