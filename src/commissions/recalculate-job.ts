import { makeCtx, OWNER } from "../context.js";
import type { JobHandler } from "../jobs/jobs-source.js";
import { affectedUsers } from "./recalc/load.js";
import { planRecalc } from "./recalc/plan.js";
import type { RecalcTarget } from "./recalc/types.js";
import { applyPlan, lockForRecalc } from "./recalculate.js";

const USERS_PER_BATCH = 20;

interface RecalcPayload {
  targets: RecalcTarget[];
  env: string;
}

/**
 * The `recalculate` job: the affected users in id order, a few per short transaction (all of a user's
 * buckets in one, so a bucket is never half-written). Each batch recomputes from the current data, so
 * a retried or overlapping run converges on the same lines.
 */
export const recalculateJobHandler: JobHandler = async (job, tools) => {
  const { targets, env } = job.payload as unknown as RecalcPayload;
  const users = await affectedUsers(tools.db, targets);
  let done = 0;
  for (let i = 0; i < users.length; i += USERS_PER_BATCH) {
    const batch = users.slice(i, i + USERS_PER_BATCH);
    const ctx = makeCtx(tools.db, env, OWNER, null, tools.now());
    await tools.db.transaction().execute(async (tx) => {
      await lockForRecalc(tx, { users: batch });
      const plan = await planRecalc(tx, targets, batch);
      await applyPlan(tx, ctx, plan);
      done += plan.size;
    });
    await tools.progress(Math.min(done, job.total ?? done));
  }
  await tools.progress(job.total ?? done);
};
