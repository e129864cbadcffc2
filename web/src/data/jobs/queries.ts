import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type Job = Schemas["Job"];
export type JobListItem = Schemas["JobListItem"];

/** How often a page with queued or running jobs asks again. */
const POLL_MS = 2_000;
const inProgress = (job: { status: Job["status"] }) => job.status === "queued" || job.status === "running";

/** GET /jobs, read again every POLL_MS while any job it shows is queued or running. */
export const jobsQuery = defineQuery("GET /api/v1/jobs", (query: QueryOf<"listJobs">) =>
  queryOptions({
    queryKey: keys.jobs.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/jobs", { params: { query } })),
    refetchInterval: (q) => (q.state.data?.data.some(inProgress) ? POLL_MS : false),
  }),
);

/** A background job, asked again every second until it has finished. */
export const jobQuery = defineQuery("GET /api/v1/jobs/{id}", (id: string) =>
  queryOptions({
    queryKey: keys.jobs.detail(id),
    queryFn: () => unwrap(api.GET("/api/v1/jobs/{id}", { params: { path: { id } } })),
    refetchInterval: (q) => (q.state.data && !inProgress(q.state.data) ? false : 1000),
  }),
);
