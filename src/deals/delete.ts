import { audit } from "../audit/record.js";
import { adjustmentLineIds, bucketsOfDeals, recalculate } from "../commissions/index.js";
import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import { conflict } from "../errors.js";
import { emit } from "../events/emit.js";
import { invalidTransition } from "./checks.js";
import { lockDealAndUsers } from "./lock.js";
import { LOCKED_STATUSES } from "./records.js";
import * as repo from "./repository.js";

/**
 * Adjustment lines are money records, kept even once voided by a rejection: deleting the deal would
 * delete them (its lines cascade), so a deal that has ever had one is never deleted (409).
 */
async function refuseIfAdjusted(tx: Tx, deal: repo.DealRecord): Promise<void> {
  const lines = await adjustmentLineIds(tx, deal.id);
  if (lines.length === 0) return;
  const instead = deal.status === "pending" ? " Reject the deal instead: that voids its lines." : "";
  throw conflict(
    `Deal ${deal.id} has had adjustment lines (${lines.join(", ")}); they are money records and are never ` +
      `deleted, so neither is the deal.${instead}`,
  );
}

/** Returns the recalculation job id, if the change went to the background. */
export async function deleteDeal(ctx: Ctx, id: string): Promise<string | null> {
  requireScope(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    const deal = await lockDealAndUsers(tx, id, []);
    if (LOCKED_STATUSES.has(deal.status)) throw invalidTransition(deal, "deleted");
    await refuseIfAdjusted(tx, deal);
    const left = await bucketsOfDeals(tx, [id]);
    await repo.deleteDeal(tx, id);
    const object = repo.toDeal(deal);
    await audit(tx, ctx, { action: "deal.delete", resource: "deal", resourceId: id, before: object });
    await emit(tx, ctx, "deal.deleted", { object });
    const { jobId } = await recalculate(tx, ctx, [{ type: "deals", deal_ids: [id], buckets: left }]);
    return jobId;
  });
}
