import type { Db } from "../db/schema.js";
import { compactDealCounts } from "../deals/index.js";
import type { JobHandler } from "../jobs/jobs-source.js";
import type { JobKind } from "../jobs/kinds.js";
import { enqueueJobUnlessWaiting } from "../jobs/queue.js";
import { purge, type RetentionRule, vacuumAnalyze } from "./retention-repository.js";

const RETENTION: JobKind = "retention";

const EVERY_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

/** What is kept how long (API.md §3, §6, §2). Each rule deletes in short batches, never blocking requests. */
const RULES: (RetentionRule & { keepMs: number })[] = [
  { table: "request_logs", column: "created_at", keepMs: 30 * DAY_MS },
  { table: "rate_limits", column: "expires_at", keepMs: 0 },
  { table: "idempotency_keys", column: "created_at", keepMs: DAY_MS },
  { table: "webhook_attempts", column: "attempted_at", keepMs: 30 * DAY_MS },
  {
    table: "webhook_deliveries",
    column: "created_at",
    keepMs: 30 * DAY_MS,
    where: "status IN ('succeeded', 'failed')",
  },
  { table: "jobs", column: "finished_at", keepMs: 30 * DAY_MS, where: "status IN ('succeeded', 'failed')" },
];

/** Queues a retention run unless one is already waiting (a partial unique index keeps it to one). */
export async function scheduleRetention(db: Db, at: Date): Promise<void> {
  await enqueueJobUnlessWaiting(db, new Date(), { kind: RETENTION, payload: {}, runAt: at });
}

export const retentionJobHandler: JobHandler = async (_job, tools) => {
  const now = tools.now();
  let done = 0;
  for (const rule of RULES) {
    done += await purge(tools.db, rule, new Date(now.getTime() - rule.keepMs));
    await tools.progress(done);
  }
  await compactDealCounts(tools.db);
  await scheduleRetention(tools.db, new Date(now.getTime() + EVERY_MS));
};

/*
 * PGlite runs no autovacuum: without this the embedded planner keeps its empty-table statistics and
 * index-only scans slow down as the visibility map goes stale. The tables that grow, one statement
 * each, so a request waits at most one table's VACUUM on the single connection.
 */
const UPKEEP_TABLES = [
  "deals",
  "deal_splits",
  "commission_lines",
  "plan_assignments",
  "users",
  "events",
  "audit_events",
  "webhook_deliveries",
  "request_logs",
  "jobs",
];

/** The retention job plus what autovacuum would do, for the embedded database. */
export const embeddedRetentionJobHandler: JobHandler = async (job, tools) => {
  await retentionJobHandler(job, tools);
  for (const table of UPKEEP_TABLES) await vacuumAnalyze(tools.db, table);
};
