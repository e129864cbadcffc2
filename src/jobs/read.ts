import { MAY } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import type { JobKind } from "./kinds.js";
import { findJob, type Job } from "./queue.js";

/** The job kinds a role beyond admins may read: finance previews plan changes (MAY.previewPlanChange). */
const READABLE_BY_FINANCE = new Set<string>(["plan_impact"] satisfies JobKind[]);

export async function getJob(ctx: Ctx, id: string): Promise<Job> {
  requireScope(ctx, "read", MAY.readJob);
  const job = await findJob(ctx.db, id);
  // Jobs stay an admin-only collection for finance (§11): any other job, known or not, is refused, not 404.
  if (ctx.actor.type === "user" && ctx.actor.role === "finance" && !(job && READABLE_BY_FINANCE.has(job.kind))) {
    requireScope(ctx, "read", MAY.adminRead);
  }
  if (!job) throw notFound("Job", id);
  return job;
}
