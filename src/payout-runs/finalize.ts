import { MAY } from "../access/index.js";
import { audit } from "../audit/record.js";
import { lockPayments } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { lockDealsForPayment, settlePaidDeals } from "../deals/index.js";
import { emit } from "../events/emit.js";
import { unsettle } from "./draws-repository.js";
import { actorId, periodStart, writePayees } from "./payees.js";
import { detailOf, summaryOf } from "./read.js";
import * as repo from "./repository.js";
import type { PayoutRunDetail } from "./schema.js";
import { scopeOf, settleDraws } from "./settle-draws.js";
import { lockedDraft } from "./transition.js";

/**
 * draft → finalized in one transaction (API.md §13): the run locked first; deficits recomputed against
 * the runs finalized by then (the lines never change); names and ids copied again; lines paid; each
 * approved deal whose non-void lines are now all paid → paid (`deal.paid`); `payout_run.finalized`.
 */
export async function finalizePayoutRun(ctx: Ctx, id: string): Promise<PayoutRunDetail> {
  requireScope(ctx, "admin", MAY.payoutRuns);
  return withTransaction(ctx, async (tx) => {
    const draft = await lockedDraft(tx, id, "finalized");
    const before = await summaryOf(tx, draft);
    await lockPayments(tx, "run");
    // Deals before their lines: the lock order of every deal transition (mark-paid, disputes).
    const deals = await lockDealsForPayment(tx, id);
    await unsettle(tx, id, "delete");
    await settleDraws(tx, scopeOf(draft, ctx.now), "finalized");
    await writePayees(tx, id, draft.max_recovery_percent, "finalized");
    await repo.payLines(tx, id);
    await settlePaidDeals(tx, ctx, deals);
    const row = await repo.updateRun(tx, id, {
      status: "finalized",
      finalized_at: ctx.now,
      finalized_by: actorId(ctx.actor),
      period_start: periodStart(draft.through, await repo.latestThrough(tx, id)),
    });
    const after = await summaryOf(tx, row);
    await audit(tx, ctx, { action: "payout_run.finalize", resource: "payout_run", resourceId: id, before, after });
    await emit(tx, ctx, "payout_run.finalized", { object: after });
    return detailOf(tx, row);
  });
}
