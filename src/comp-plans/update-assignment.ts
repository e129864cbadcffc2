import { audit } from "../audit/record.js";
import { recalculate } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { compareTexts } from "../money/index.js";
import { lockExisting } from "./assignment-lock.js";
import { checkOverlap, checkSpan, rangeOf, type Span, spanOf } from "./assignment-span.js";
import * as repo from "./assignments-repository.js";
import type { AssignmentWritten, UpdateAssignmentBody } from "./schema.js";

export async function updateAssignment(ctx: Ctx, id: string, input: UpdateAssignmentBody): Promise<AssignmentWritten> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const { assignment: before, plan } = await lockExisting(tx, id);
    await ctx.precondition?.(tx);
    const old = spanOf(before);
    const span: Span = {
      effective_from: input.effective_from ?? old.effective_from,
      effective_to: input.effective_to === undefined ? old.effective_to : input.effective_to,
      quota_override: input.quota_override === undefined ? old.quota_override : input.quota_override,
    };
    checkSpan(plan, span);
    const sameQuota =
      (span.quota_override === null) === (old.quota_override === null) &&
      (span.quota_override === null || compareTexts(span.quota_override, old.quota_override!) === 0);
    if (sameQuota && span.effective_from === old.effective_from && span.effective_to === old.effective_to) {
      return { ...before, recalculation_job_id: null };
    }
    await checkOverlap(tx, before.user_id, plan, span, id);
    const after = await repo.updateAssignment(tx, id, { ...span, updated_at: ctx.now });
    await audit(tx, ctx, {
      action: "plan_assignment.update",
      resource: "plan_assignment",
      resourceId: id,
      before,
      after,
    });
    const ranges = [rangeOf(old), rangeOf(span)];
    const { jobId } = await recalculate(tx, ctx, [{ type: "user", user_id: before.user_id, ranges }]);
    return { ...after, recalculation_job_id: jobId };
  });
}
