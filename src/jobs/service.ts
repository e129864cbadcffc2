import { MAY } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import { findJob, type Job } from "./queue.js";

export async function getJob(ctx: Ctx, id: string): Promise<Job> {
  requireScope(ctx, "read", MAY.adminRead);
  const job = await findJob(ctx.db, id);
  if (!job) throw notFound("Job", id);
  return job;
}
