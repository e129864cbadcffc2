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

/** One page of jobs, newest first (created_at desc, id desc), and how many match. */
export async function listJobs(
  db: Kdb,
  filter: { status?: Job["status"]; kind?: string },
  limit: number,
  offset: number,
): Promise<{ rows: Omit<Job, "result">[]; total: number }> {
  let query = db.selectFrom("jobs");
  if (filter.status) query = query.where("status", "=", filter.status);
  if (filter.kind) query = query.where("kind", "=", filter.kind);
  const [rows, count] = await Promise.all([
    query
      .select(["id", "kind", "status", "total", "done", "error", "created_at", "finished_at"])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .offset(offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const jobs = rows.map(({ created_at, finished_at, ...row }) => ({
    ...row,
    created_at: toIso(created_at)!,
    finished_at: toIso(finished_at),
  }));
  return { rows: jobs, total: Number(count.n) };
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
