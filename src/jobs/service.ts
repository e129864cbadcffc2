import { MAY } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import { findJob, type Job } from "./queue.js";

/** The job kinds a role beyond admins may read: finance previews plan changes (MAY.previewPlanChange). */
const READABLE_BY_FINANCE = new Set(["plan_impact"]);

export async function getJob(ctx: Ctx, id: string): Promise<Job> {
  requireScope(ctx, "read", MAY.readJob);
  const job = await findJob(ctx.db, id);
  if (!job) throw notFound("Job", id);
  if (ctx.actor.type === "user" && ctx.actor.role === "finance" && !READABLE_BY_FINANCE.has(job.kind)) {
    requireScope(ctx, "read", MAY.adminRead);
  }
  return job;
}
