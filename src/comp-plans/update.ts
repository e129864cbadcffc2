import { audit } from "../audit/record.js";
import { correctLockedHistory, lockForRecalc, recalculate, toPlanInput } from "../commissions/index.js";
import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import { notFound } from "../errors.js";
import { amountNumber } from "../money/index.js";
import type { NotificationSettings } from "../notifications/index.js";
import { askToAcknowledge } from "../plan-acknowledgements/index.js";
import { usersAssignedTo } from "./assignments-repository.js";
import { planEdit } from "./edit.js";
import * as repo from "./repository.js";
import type { CompPlanWritten, UpdatePlanBody } from "./schema.js";

/** Locks the users a plan edit can move (after the plan row: the global order is plans, then users). */
async function lockAssignedUsers(tx: Tx, planId: string): Promise<void> {
  await lockForRecalc(tx, { users: await usersAssignedTo(tx, planId) });
}

/**
 * Editing the terms of an active plan (or of a version lines already use) creates a new version;
 * name, description and status edits keep it. Terms, dates and status changes recalculate. With
 * `retroactive`, locked lines the new terms reprice get their adjustment lines in the same transaction.
 */
export async function updatePlan(
  ctx: Ctx,
  id: string,
  input: UpdatePlanBody,
  mail?: NotificationSettings,
): Promise<CompPlanWritten> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    await lockForRecalc(tx);
    const before = await repo.lockPlanRecord(tx, id);
    if (!before) throw notFound("Comp plan", id);
    await ctx.precondition?.(tx);
    const edit = await planEdit(tx, before, input, ctx.now);
    const retroactive = input.retroactive === true;
    const none = retroactive ? { retroactive_adjustments: { count: 0, sum: 0 } } : {};
    if (!edit.changed) return { ...repo.toPlan(before), recalculation_job_id: null, ...none };
    const { record, termsChanged, statusChanged, newVersion } = edit;
    const recalculates = termsChanged || statusChanged;
    if (recalculates) await lockAssignedUsers(tx, id);
    const after = repo.toPlan(await repo.updatePlan(tx, record, newVersion));
    if (newVersion) await askToAcknowledge(tx, ctx, mail, { planId: id });
    await audit(tx, ctx, {
      action: "comp_plan.update",
      resource: "comp_plan",
      resourceId: id,
      before: repo.toPlan(before),
      after,
    });
    const corrected =
      retroactive && termsChanged ? await correctLockedHistory(tx, ctx, toPlanInput(record), before.version) : null;
    const recalc = recalculates ? await recalculate(tx, ctx, [{ type: "plan", plan_id: id }]) : { jobId: null };
    return {
      ...after,
      recalculation_job_id: recalc.jobId,
      ...(corrected ? { retroactive_adjustments: { count: corrected.count, sum: amountNumber(corrected.sum) } } : none),
    };
  });
}
