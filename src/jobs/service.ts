import { MAY } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import { offsetOf, type Page } from "../http/pagination.js";
import type { JobKind } from "./kinds.js";
import { findJob, type Job, listJobs as listJobRows } from "./queue.js";
import type { JobListItem, ListJobsQuery } from "./schema.js";

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

/** GET /jobs: every background job, admins only (finance reads its plan_impact jobs by id). */
export async function listJobs(ctx: Ctx, query: ListJobsQuery): Promise<Page<JobListItem>> {
  requireScope(ctx, "admin", MAY.adminRead);
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await listJobRows(ctx.db, query, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}
