import { MAY } from "../access/index.js";
import { impactSize } from "../commissions/index.js";
import { type Ctx, makeCtx, OWNER, requireScope, withTransaction } from "../context.js";
import { AppError } from "../errors.js";
import type { JobHandler } from "../jobs/jobs-source.js";
import type { JobKind } from "../jobs/kinds.js";
import { enqueueJob, type Job, recordJobResult } from "../jobs/queue.js";
import { impactOfChange, planChangeOf, recalculates } from "./impact.js";
import type { PlanImpact, PlanImpactQuery, UpdatePlanBody } from "./schema.js";

/*
 * A large plan's impact runs as a job (issue #16): bench/plan-impact.mjs measured 110,000 lines (80,000
 * pending, 30,000 locked) at 7 s and ~350 MB more on PostgreSQL, 14 s embedded, on a quiet 2-core machine
 * (32–45 s under load). Past the limit below a request would hold a transaction, a connection and the
 * embedded server that long, so it answers 202 with the job, whose `result` is the same answer. An MCP
 * call, which has no job to wait on, is refused past the limit instead (`overLimit: "refuse"`).
 */

export const PLAN_IMPACT_JOB_KIND: JobKind = "plan_impact";

let inlineLimit = 20_000;

/** Lines an impact may compute within the request; beyond it a job computes it. `cts serve` sets it from CTS_PLAN_IMPACT_INLINE_LINES; tests lower it. */
export function setImpactInlineLimit(limit: number): void {
  inlineLimit = limit;
}

interface PlanImpactPayload {
  plan_id: string;
  body: UpdatePlanBody;
  query: PlanImpactQuery;
  env: string;
}

export type ImpactAnswer = { answer: PlanImpact } | { accepted: Job };

/**
 * POST /comp-plans/{id}/impact: the body is checked (404, 422) as the PATCH checks it, then the impact is
 * computed now, or, when the plan has more lines than the limit, by a job queued in this transaction.
 */
export async function requestPlanChangeImpact(
  ctx: Ctx,
  id: string,
  input: UpdatePlanBody,
  query: PlanImpactQuery,
  overLimit: "queue" | "refuse" = "queue",
): Promise<ImpactAnswer> {
  requireScope(ctx, "admin", MAY.previewPlanChange);
  return withTransaction(ctx, async (tx) => {
    const change = await planChangeOf(tx, id, input, ctx.now);
    const size = recalculates(change) ? await impactSize(tx, id) : 0;
    if (size <= inlineLimit) return { answer: await impactOfChange(tx, change, query) };
    if (overLimit === "refuse") {
      throw new AppError(
        "conflict",
        `This change's impact covers ${size} lines, more than one call computes (${inlineLimit}): ` +
          `POST /api/v1/comp-plans/${id}/impact answers it with a job`,
      );
    }
    const payload: PlanImpactPayload = { plan_id: id, body: input, query, env: ctx.env };
    return {
      accepted: await enqueueJob(tx, ctx.now, { kind: PLAN_IMPACT_JOB_KIND, payload: { ...payload }, total: size }),
    };
  });
}

/** The `plan_impact` job: the request's impact computed when the job runs, stored as the job's result. */
export const planImpactJobHandler: JobHandler = async (job, tools) => {
  const { plan_id, body, query, env } = job.payload as unknown as PlanImpactPayload;
  const ctx = makeCtx(tools.db, env, OWNER, null, tools.now());
  const impact = await withTransaction(ctx, async (tx) =>
    impactOfChange(tx, await planChangeOf(tx, plan_id, body, ctx.now), query),
  );
  await recordJobResult(tools.db, job.id, impact);
  await tools.progress(job.total ?? 0);
};
