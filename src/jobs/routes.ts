import { MAY } from "../access/index.js";
import { IdParams } from "../http/input-fields.js";
import { pageReply } from "../http/list-reply.js";
import { listOf, NEWEST_FIRST } from "../http/pagination.js";
import type { App } from "../http/types.js";
import { listJobs } from "./list.js";
import { getJob } from "./read.js";
import { JobListItem, JobSchema, ListJobsQuery } from "./schema.js";

export function jobRoutes(app: App): void {
  app.get(
    "/jobs",
    {
      config: { scope: "admin", roles: MAY.adminRead },
      schema: {
        tags: ["Jobs"],
        summary: "List background jobs",
        operationId: "listJobs",
        description: `Background jobs and their progress (done of total). ${NEWEST_FIRST} Items leave out \`result\` (GET /jobs/{id} has it). Finished jobs are kept 30 days.`,
        querystring: ListJobsQuery,
        response: { 200: listOf(JobListItem) },
      },
    },
    async (req, reply) => pageReply(req, reply, await listJobs(req.ctx, req.query)),
  );
  app.get(
    "/jobs/:id",
    {
      config: { scope: "read", roles: MAY.readJob },
      schema: {
        tags: ["Jobs"],
        summary: "Get a background job",
        operationId: "getJob",
        description:
          "Progress of background work such as a wide recalculation (`recalculation_job_id`). Until it succeeds, reads show the previous amounts. " +
          "A large plan-change impact (`plan_impact`, from POST /comp-plans/{id}/impact) puts its answer in `result`; finance may read those jobs, admins every job.",
        params: IdParams,
        response: { 200: JobSchema },
      },
    },
    (req) => getJob(req.ctx, req.params.id),
  );
}
