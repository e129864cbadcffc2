import { MAY } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { offsetOf, type Page } from "../http/pagination.js";
import { listJobs as listJobRows } from "./queue.js";
import type { JobListItem, ListJobsQuery } from "./schema.js";

/** GET /jobs: every background job, admins only (finance reads its plan_impact jobs by id). */
export async function listJobs(ctx: Ctx, query: ListJobsQuery): Promise<Page<JobListItem>> {
  requireScope(ctx, "admin", MAY.adminRead);
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await listJobRows(ctx.db, query, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}
