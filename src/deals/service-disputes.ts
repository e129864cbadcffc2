import { audit } from "../audit/record.js";
import {
  addAdjustment,
  type DisputeSource,
  disputeAdjustmentPeriod,
  disputeReason,
} from "../commissions/adjustments.js";
import { Dec } from "../commissions/calculate.js";
import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import type { Dispute, OpenDisputeBody, ResolveDisputeBody } from "../disputes/schema.js";
import * as disputes from "../disputes/service.js";
import { AppError, notFound } from "../errors.js";
import { emit } from "../events/emit.js";
import { newId } from "../ids.js";
import * as repo from "./repository.js";

/*
 * approved → disputed (open) and disputed → approved (resolve), API.md §4. Both lock the deal row
 * first, then the dispute, so they serialize with every other transition of the deal.
 */

function wrongStatus(deal: repo.DealRecord, only: string, action: string): AppError {
  return new AppError("invalid_transition", `Deal ${deal.id} is ${deal.status}; only ${only} deals can be ${action}`);
}

async function lockedDeal(tx: Tx, id: string): Promise<repo.DealRecord> {
  const deal = await repo.lockDeal(tx, id);
  if (!deal) throw notFound("Deal", id);
  return deal;
}

async function dealChanged(tx: Tx, ctx: Ctx, action: string, before: repo.DealRecord, emitType?: "deal.disputed") {
  const after = repo.toDeal((await repo.findDeal(tx, before.id))!);
  await audit(tx, ctx, { action, resource: "deal", resourceId: before.id, before: repo.toDeal(before), after });
  if (emitType) await emit(tx, ctx, emitType, { object: after });
}

export async function openDispute(ctx: Ctx, dealId: string, input: OpenDisputeBody): Promise<Dispute> {
  requireScope(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    const deal = await lockedDeal(tx, dealId);
    if (deal.status !== "approved") throw wrongStatus(deal, "approved", "disputed");
    const row: disputes.DisputeRow = {
      id: newId("dsp", ctx.now.getTime()),
      deal_id: dealId,
      opened_by_key_id: ctx.actor.type === "api_key" ? ctx.actor.keyId : null,
      reason: input.reason,
      description: input.description ?? null,
      expected_amount: input.expected_amount ?? null,
      status: "open",
      outcome: null,
      resolution_note: null,
      resolved_amount: null,
      created_at: ctx.now,
      resolved_at: null,
    };
    await disputes.insertDispute(tx, row);
    await repo.setStatus(tx, dealId, { status: "disputed", updated_at: ctx.now });
    const dispute = disputes.toDispute(row);
    await audit(tx, ctx, { action: "dispute.open", resource: "dispute", resourceId: row.id, after: dispute });
    await emit(tx, ctx, "dispute.opened", { object: dispute });
    await dealChanged(tx, ctx, "deal.dispute", deal, "deal.disputed");
    return dispute;
  });
}

/** The total the admin accepts: null when no amount changes. */
function acceptedTotal(input: ResolveDisputeBody, expected: string | null): string | null {
  if (input.outcome === "denied") {
    if (input.resolved_amount !== undefined) {
      throw new AppError("validation_error", "A denied dispute changes no amount", [
        { param: "resolved_amount", message: "is not allowed when outcome is denied" },
      ]);
    }
    return null;
  }
  if (input.outcome === "partially_approved" && input.resolved_amount === undefined) {
    throw new AppError("validation_error", "partially_approved needs the accepted total", [
      { param: "resolved_amount", message: "is required when outcome is partially_approved" },
    ]);
  }
  return input.resolved_amount ?? expected;
}

/**
 * The owner's adjustment line for the difference, written like a manual one (§5 rule 8: the
 * explanation names the dispute and its resolver; `commission.calculated`; an audit row).
 */
async function adjustForDispute(tx: Tx, ctx: Ctx, deal: repo.DealRecord, source: DisputeSource, note?: string) {
  const amount = new Dec(source.accepted_total).minus(source.previous_total).toFixed(2);
  const line = await addAdjustment(tx, ctx, {
    deal_id: deal.id,
    user_id: deal.owner_id,
    amount,
    reason: disputeReason(source, note ?? null),
    period: await disputeAdjustmentPeriod(tx, deal.id, deal.owner_id, ctx.now),
    dispute: source,
  });
  await audit(tx, ctx, { action: "commission.adjust", resource: "commission", resourceId: line.id, after: line });
}

export async function resolveDispute(ctx: Ctx, id: string, input: ResolveDisputeBody): Promise<Dispute> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const seen = await disputes.disputeOf(tx, id);
    const deal = await lockedDeal(tx, seen.deal_id);
    const row = (await disputes.lockDispute(tx, id))!;
    if (row.status !== "open") throw new AppError("invalid_transition", `Dispute ${id} is already resolved`);
    if (deal.status !== "disputed") throw wrongStatus(deal, "disputed", "resolved");
    const accepted = acceptedTotal(input, row.expected_amount);
    if (accepted !== null && !new Dec(accepted).eq(deal.total_commission)) {
      const source = {
        id,
        outcome: input.outcome,
        previous_total: new Dec(deal.total_commission).toFixed(2),
        accepted_total: new Dec(accepted).toFixed(2),
      };
      await adjustForDispute(tx, ctx, deal, source, input.note);
    }
    await disputes.resolveDispute(tx, id, {
      outcome: input.outcome,
      resolution_note: input.note ?? null,
      resolved_amount: accepted,
      resolved_at: ctx.now,
    });
    await repo.setStatus(tx, deal.id, { status: "approved", updated_at: ctx.now });
    const dispute = await disputes.disputeOf(tx, id);
    await audit(tx, ctx, {
      action: "dispute.resolve",
      resource: "dispute",
      resourceId: id,
      before: seen,
      after: dispute,
    });
    await emit(tx, ctx, "dispute.resolved", { object: dispute });
    await dealChanged(tx, ctx, "deal.resolve_dispute", deal);
    return dispute;
  });
}
