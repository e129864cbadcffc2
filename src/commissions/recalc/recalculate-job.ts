import { makeCtx, OWNER } from "../../context.js";
import type { JobHandler } from "../../jobs/jobs-source.js";
import { type AffectedUser, affectedUsers } from "./credits-repository.js";
import { overrideDealIds } from "./overrides-repository.js";
import { planRecalc } from "./plan.js";
import { applyPlan, lockForRecalc } from "./recalculate.js";
import type { RecalcTarget } from "./types.js";

/*
 * Each batch's transaction holds its users' locks, so it stays short (about a second); but each also
 * pays a round of queries whose plans read in proportion to the tables (a hash of the pending deals), so
 * it is sized by credits rather than users: about this many lines per transaction. Measured on 100k
 * deals: 1,000 → 0.39× the raw writes, 2,000 → 0.45×, 5,000 → 0.55×, 10,000 → 0.56×.
 */
let creditsPerBatch = 5000;

/** Tests lower it so a small job still runs in several transactions. */
export function setBatchCredits(credits: number): void {
  creditsPerBatch = credits;
}

/** Consecutive users whose credits add up to about `limit` (a user is never split across batches). */
export function batchUsers(users: AffectedUser[], limit = creditsPerBatch): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const user of users) {
    const weight = Math.max(user.credits, 1);
    if (current.length > 0 && size + weight > limit) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(user.user_id);
    size += weight;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

interface RecalcPayload {
  targets: RecalcTarget[];
  env: string;
}

/**
 * The `recalculate` job: the affected users in id order, batched by credits into short transactions (all of a user's
 * buckets in one, so a bucket is never half-written). Each batch recomputes from the current data, so
 * a retried or overlapping run converges on the same lines.
 */
export const recalculateJobHandler: JobHandler = async (job, tools) => {
  const { targets, env } = job.payload as unknown as RecalcPayload;
  let done = 0;
  for (const batch of batchUsers(await affectedUsers(tools.db, targets))) {
    const ctx = makeCtx(tools.db, env, OWNER, null, tools.now());
    await tools.db.transaction().execute(async (tx) => {
      await lockForRecalc(tx, { users: batch });
      const plan = await planRecalc(tx, targets, { users: batch });
      done += await applyPlan(tx, ctx, plan);
    });
    await tools.progress(Math.min(done, job.total ?? done));
  }
  // Then the override lines (API.md §16), by deal: each deal's managers in one transaction.
  const dealIds = await overrideDealIds(tools.db, targets);
  for (let i = 0; i < dealIds.length; i += creditsPerBatch) {
    const ctx = makeCtx(tools.db, env, OWNER, null, tools.now());
    await tools.db.transaction().execute(async (tx) => {
      const plan = await planRecalc(tx, [], { overrideDeals: dealIds.slice(i, i + creditsPerBatch), lock: true });
      done += await applyPlan(tx, ctx, plan);
    });
    await tools.progress(Math.min(done, job.total ?? done));
  }
  await tools.progress(job.total ?? done);
};
