import type { Db } from "../db/schema.js";
import { type Job, setJobStatus } from "./repository.js";

// What tests may do to jobs beyond the public surface (queue.ts): stage a job as if its run had ended.

/** Marks a job as if its run had left it in `status` (no handler runs). */
export function markJob(db: Db, id: string, status: Job["status"]): Promise<void> {
  return setJobStatus(db, id, status);
}
