import { queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";
import type { operations } from "../../api/schema";

export type Job = Schemas["JobListItem"];
export type JobFilter = Omit<NonNullable<operations["listJobs"]["parameters"]["query"]>, "per_page">;

export const JOBS_PAGE_SIZE = 25;
/** How often a page with queued or running jobs asks again. */
export const POLL_MS = 2_000;

const inProgress = (job: Job) => job.status === "queued" || job.status === "running";

/** GET /jobs, read again every POLL_MS while any job it shows is queued or running. */
export const jobsQuery = (filter: JobFilter) =>
  queryOptions({
    queryKey: ["jobs", filter] as const,
    queryFn: () => unwrap(api.GET("/api/v1/jobs", { params: { query: { ...filter, per_page: JOBS_PAGE_SIZE } } })),
    refetchInterval: (query) => (query.state.data?.data.some(inProgress) ? POLL_MS : false),
  });

export const JOB_KINDS = ["recalculate", "plan_impact", "retention"];
