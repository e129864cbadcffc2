import type pino from "pino";
import type { Kdb } from "../db/connect.js";
import { type JobHandler, jobsSource } from "../jobs/jobs-source.js";
import type { WorkSource } from "../jobs/worker.js";
import { retentionJobHandler } from "./retention.js";

/** Every kind of background work this deployment runs, wired explicitly (no auto-discovery). */
export function workSources(db: Kdb, logger: pino.Logger): WorkSource<unknown>[] {
  const handlers: Record<string, JobHandler> = { retention: retentionJobHandler };
  return [jobsSource({ db, handlers, logger })];
}
