import { audit } from "../audit/record.js";
import { lockForRecalc, recalculate } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { notFound, validationError } from "../errors.js";
import { newId } from "../ids.js";
import type { NotificationSettings } from "../notifications/index.js";
import { askToAcknowledge } from "../plan-acknowledgements/index.js";
import { checkOverlap, checkSpan, rangeOf } from "./assignment-span.js";
import * as repo from "./assignments-repository.js";
import { lockPlanRecord } from "./repository.js";
import type { AssignmentWritten, CreateAssignmentBody } from "./schema.js";

export async function createAssignment(
  ctx: Ctx,
  planId: string,
  input: CreateAssignmentBody,
  mail?: NotificationSettings,
): Promise<AssignmentWritten> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    await lockForRecalc(tx);
    const plan = await lockPlanRecord(tx, planId);
    if (!plan) throw notFound("Comp plan", planId);
    const span = {
      effective_from: input.effective_from,
      effective_to: input.effective_to ?? null,
      quota_override: input.quota_override ?? null,
    };
    checkSpan(plan, span);
    const users = await lockForRecalc(tx, { users: [input.user_id] });
    if (!users.has(input.user_id)) throw validationError("user_id", `user ${input.user_id} does not exist`);
    await checkOverlap(tx, input.user_id, plan, span, null);
    const assignment = await repo.insertAssignment(tx, {
      id: newId("asg", ctx.now.getTime()),
      plan_id: planId,
      user_id: input.user_id,
      ...span,
      created_at: ctx.now,
      updated_at: ctx.now,
    });
    await askToAcknowledge(tx, ctx, mail, { planId, userId: input.user_id });
    await audit(tx, ctx, {
      action: "plan_assignment.create",
      resource: "plan_assignment",
      resourceId: assignment.id,
      after: assignment,
    });
    const { jobId } = await recalculate(tx, ctx, [{ type: "user", user_id: input.user_id, ranges: [rangeOf(span)] }]);
    return { ...assignment, recalculation_job_id: jobId };
  });
}
