import { z } from "zod";
import { JOB_STATUSES } from "../enums.js";
import { Timestamp } from "../http/date-fields.js";
import { PageQuery } from "../http/pagination.js";
import { JOB_KINDS } from "./kinds.js";

export const JobSchema = z
  .object({
    id: z.string().describe("job_…"),
    kind: z.string().describe(`One of ${JOB_KINDS.join(", ")}.`),
    status: z.enum(JOB_STATUSES),
    total: z.number().int().nullable().describe("Units of work, when known."),
    done: z.number().int(),
    error: z.string().nullable(),
    result: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe(
        "The answer of a job that computes one, once it succeeded: `plan_impact` (POST /comp-plans/{id}/impact on a " +
          "large plan) → the PlanImpact the request would have answered. Null for other kinds.",
      ),
    created_at: Timestamp,
    finished_at: Timestamp.nullable(),
  })
  .meta({ id: "Job" });

/** A job as GET /jobs lists it: without `result`, which can be a whole plan-change impact (read it by id). */
export const JobListItem = JobSchema.omit({ result: true }).meta({ id: "JobListItem" });
export type JobListItem = z.infer<typeof JobListItem>;

export const ListJobsQuery = PageQuery.extend({
  status: z.enum(JOB_STATUSES).optional().describe("Only jobs in this status (running: in progress now)."),
  kind: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe(`Only jobs of this kind: ${JOB_KINDS.join(", ")}.`),
}).strict();
export type ListJobsQuery = z.infer<typeof ListJobsQuery>;
