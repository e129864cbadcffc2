import { audit } from "../audit/record.js";
import { adjustmentLineIds, bucketsOfDeals, lockForRecalc, recalculate } from "../commissions/index.js";
import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import { AppError, conflict, type ErrorDetail, notFound } from "../errors.js";
import { emit } from "../events/emit.js";
import { newId } from "../ids.js";
import { persistDeals } from "./persist.js";
import {
  creditedUsers,
  LOCKED_STATUSES,
  missingUsers,
  namedUsers,
  newRecord,
  patched,
  sameDeal,
  writableOf,
} from "./records.js";
import * as repo from "./repository.js";
import type { CreateDealBody, DealDetail, UpdateDealBody } from "./schema.js";
import { detailOf, detailOfRecord } from "./service-read.js";
import { creditedUserIds } from "./transitions-repository.js";

export function throwIfInvalid(details: ErrorDetail[]): void {
  if (details.length === 0) return;
  throw new AppError(
    "validation_error",
    `Invalid deal: ${details.map((d) => `${d.param} ${d.message}`).join("; ")}`,
    details,
  );
}

/** 409 when another deal already holds the CRM id. */
export async function checkExternalId(tx: Tx, externalId: string | null, dealId: string | null): Promise<void> {
  if (externalId === null) return;
  const [other] = await repo.findByExternalIds(tx, [externalId]);
  if (other && other.id !== dealId)
    throw conflict(`A deal with external_id ${externalId} already exists (${other.id})`);
}

export function invalidTransition(deal: repo.DealRecord, action: string): AppError {
  return new AppError(
    "invalid_transition",
    `Deal ${deal.id} is ${deal.status}; only pending and rejected deals can be ${action}`,
  );
}

export async function createDeal(ctx: Ctx, input: CreateDealBody): Promise<DealDetail> {
  requireScope(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    if (input.external_id) await repo.lockExternalIds(tx, [input.external_id]);
    const named = namedUsers(input);
    throwIfInvalid(missingUsers(named, await lockForRecalc(tx, { users: named.map(([, id]) => id) })));
    const record = newRecord(newId("deal", ctx.now.getTime()), ctx.now, writableOf(input));
    await checkExternalId(tx, record.external_id, null);
    const { jobId } = await persistDeals(tx, ctx, { created: [record], updated: [] });
    return detailOf(tx, record.id, jobId);
  });
}

/**
 * Locks, in the global order, the users the deal credits now (read from its splits) and those the body
 * names, then the deal, whose record it returns: the only read of the deal row. If its credited users
 * changed meanwhile (their locks are not all held), the caller retries (409).
 */
export async function lockDealAndUsers(tx: Tx, id: string, named: [string, string][]): Promise<repo.DealRecord> {
  const credited = await creditedUserIds(tx, id);
  const known = await lockForRecalc(tx, { users: [...named.map(([, u]) => u), ...credited] });
  throwIfInvalid(missingUsers(named, known));
  const deal = await repo.lockDeal(tx, id);
  if (!deal) throw notFound("Deal", id);
  if (creditedUsers([deal]).some((u) => !known.has(u))) {
    throw conflict(`Deal ${id} changed while this request ran; retry`);
  }
  return deal;
}

export async function updateDeal(ctx: Ctx, id: string, input: UpdateDealBody): Promise<DealDetail> {
  requireScope(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    if (input.external_id) await repo.lockExternalIds(tx, [input.external_id]);
    const before = await lockDealAndUsers(tx, id, namedUsers(input));
    await ctx.precondition?.(tx);
    if (LOCKED_STATUSES.has(before.status)) throw invalidTransition(before, "edited");
    const next = patched(before, input);
    if (before.status === "pending" && sameDeal(before, next, true)) return detailOfRecord(tx, before, null);
    await checkExternalId(tx, next.external_id, id);
    const after = { ...next, status: "pending" as const, rejection_reason: null, updated_at: ctx.now };
    const { jobId } = await persistDeals(tx, ctx, { created: [], updated: [{ before, after }] });
    return detailOf(tx, id, jobId);
  });
}

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
