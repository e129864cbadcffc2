import { MAY } from "../access/index.js";
import { audit } from "../audit/record.js";
import { lockPayments } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { emit } from "../events/emit.js";
import { unsettle } from "./draws-repository.js";
import { actorId } from "./payees.js";
import { detailOf, summaryOf } from "./read.js";
import * as repo from "./repository.js";
import type { PayoutRunDetail } from "./schema.js";
import { lockedDraft } from "./transition.js";

/** draft → cancelled: its lines are released (a later run may take them); its payees stay readable. */
export async function cancelPayoutRun(ctx: Ctx, id: string): Promise<PayoutRunDetail> {
  requireScope(ctx, "admin", MAY.payoutRuns);
  return withTransaction(ctx, async (tx) => {
    const draft = await lockedDraft(tx, id, "cancelled");
    const before = await summaryOf(tx, draft);
    await lockPayments(tx, "run");
    await unsettle(tx, id, "void");
    await repo.releaseLines(tx, id);
    const row = await repo.updateRun(tx, id, {
      status: "cancelled",
      cancelled_at: ctx.now,
      cancelled_by: actorId(ctx.actor),
    });
    const after = await summaryOf(tx, row);
    await audit(tx, ctx, { action: "payout_run.cancel", resource: "payout_run", resourceId: id, before, after });
    await emit(tx, ctx, "payout_run.cancelled", { object: after });
    return detailOf(tx, row);
  });
}
