import { audit } from "../audit/record.js";
import { recalculate } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { lockExisting } from "./assignment-lock.js";
import { rangeOf, spanOf } from "./assignment-span.js";
import * as repo from "./assignments-repository.js";

/** Returns the recalculation job id, if the change went to the background. */
export async function deleteAssignment(ctx: Ctx, id: string): Promise<string | null> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const { assignment } = await lockExisting(tx, id);
    await repo.deleteAssignment(tx, id);
    await audit(tx, ctx, {
      action: "plan_assignment.delete",
      resource: "plan_assignment",
      resourceId: id,
      before: assignment,
    });
    const ranges = [rangeOf(spanOf(assignment))];
    const { jobId } = await recalculate(tx, ctx, [{ type: "user", user_id: assignment.user_id, ranges }]);
    return jobId;
  });
}
