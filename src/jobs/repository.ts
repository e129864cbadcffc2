import { type Selectable, sql, type Updateable } from "kysely";
import type { Tx } from "../context.js";
import type { Db, JobsTable } from "../db/schema.js";
import { toIso } from "../http/date-fields.js";
import { newId } from "../ids.js";
import type { JobKind } from "./kinds.js";

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

/** Inserts a queued job (enqueueJob in queue.ts is the service). */
export async function insertJob(tx: Tx, now: Date, job: NewJob): Promise<Job> {
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

/** Inserts a queued job unless a unique index refuses it (one queued retention run); false when refused. */
export async function insertJobUnlessWaiting(db: Db, now: Date, job: NewJob): Promise<boolean> {
  const result = await db
    .insertInto("jobs")
    .values({
      id: newId("job", now.getTime()),
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      status: "queued",
      total: job.total ?? null,
      run_at: job.runAt ?? now,
      created_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** One page of jobs, newest first (created_at desc, id desc), and how many match. */
export async function listJobRows(
  db: Db,
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

export async function findJob(db: Db, id: string): Promise<Job | undefined> {
  const row = await db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toJob(row);
}

/** Stores a job's answer; the worker marks the job succeeded once its handler returns. */
export async function recordJobResult(db: Db, id: string, result: Record<string, unknown>): Promise<void> {
  await db
    .updateTable("jobs")
    .set({ result: JSON.stringify(result) })
    .where("id", "=", id)
    .execute();
}

// ---- the worker's side (jobs-source.ts): claiming, leases, outcomes ----

/**
 * Claims up to `limit` due jobs of these kinds (queued and due, or running with an expired lease) for
 * `workerId`, leased until `lockedUntil`: one UPDATE over a `FOR UPDATE SKIP LOCKED` selection.
 */
export async function claimDueJobs(
  db: Db,
  kinds: string[],
  workerId: string,
  limit: number,
  now: Date,
  lockedUntil: Date,
): Promise<JobRow[]> {
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
      locked_until: lockedUntil,
      attempts: eb("attempts", "+", 1),
      started_at: eb.fn.coalesce("started_at", sql<Date>`${now}`),
    }))
    .where("id", "in", due)
    .returningAll()
    .execute();
}

/** Updates a job this worker still holds (running, claimed by it); a lost lease updates nothing. */
export async function updateHeldJob(
  db: Db,
  id: string,
  workerId: string,
  values: Updateable<JobsTable>,
): Promise<void> {
  await db
    .updateTable("jobs")
    .set(values)
    .where("id", "=", id)
    .where("claimed_by", "=", workerId)
    .where("status", "=", "running")
    .execute();
}

const RETENTION: JobKind = "retention";

/**
 * Running jobs (of one worker, or of every worker) back to the queue, due at once. At most one retention
 * run may wait (`jobs_one_queued_retention`): a running one whose next run is already queued (start-up
 * queues one) ends as failed instead, or the UPDATE would violate the index and the worker, failing that
 * claim forever, would deliver nothing again (seen after a SIGKILL during retention).
 */
export async function releaseRunning(db: Db, workerId?: string): Promise<number> {
  const claimedBy = workerId === undefined ? sql`TRUE` : sql`claimed_by = ${workerId}`;
  const superseded = await sql`
    UPDATE jobs SET status = 'failed', claimed_by = NULL, locked_until = NULL, finished_at = now(),
      error = 'its process stopped during the run; the retention run already queued does its work'
    WHERE status = 'running' AND ${claimedBy} AND kind = ${RETENTION}
      AND EXISTS (SELECT 1 FROM jobs q WHERE q.kind = ${RETENTION} AND q.status = 'queued')`.execute(db);
  const released = await sql`
    UPDATE jobs SET status = 'queued', claimed_by = NULL, locked_until = NULL
    WHERE status = 'running' AND ${claimedBy}`.execute(db);
  return Number(superseded.numAffectedRows ?? 0) + Number(released.numAffectedRows ?? 0);
}

/** Sets a job's status as its run would have left it (testing.ts: tests that stage a finished job). */
export async function setJobStatus(db: Db, id: string, status: Job["status"]): Promise<void> {
  await db.updateTable("jobs").set({ status }).where("id", "=", id).execute();
}
