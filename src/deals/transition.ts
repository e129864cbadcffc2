import { audit } from "../audit/record.js";
import { type LineTotals, readLineTotals } from "../commissions/index.js";
import type { Ctx, Tx } from "../context.js";
import { AppError, notFound } from "../errors.js";
import type { EventType } from "../events/catalogue.js";
import { emit } from "../events/emit.js";
import * as repo from "./repository.js";
import type { DealStatus } from "./schema.js";

// What a deal's status transitions share: approve, reject and mark paid (first), open and resolve a
// dispute (further down).

/*
 * The admin transitions of API.md §4 "Deal states". Each locks the deal row (SELECT … FOR UPDATE)
 * before reading its status, so of concurrent transitions exactly one wins and the rest see the
 * winner's status (409). Approval and rejection also lock the credited users first, in the global
 * order recalculations use, because both change what a recalculation may rewrite. The locked record
 * and the one the status update returns are the only reads of the deal: the audit row, the event and
 * the response are built from them.
 */

export type Action = "approved" | "rejected" | "marked paid";
export const ONLY: Record<Action, DealStatus> = { approved: "pending", rejected: "pending", "marked paid": "approved" };

export function notAllowed(deal: repo.DealRecord, action: Action): AppError {
  return new AppError(
    "invalid_transition",
    `Deal ${deal.id} is ${deal.status}; only ${ONLY[action]} deals can be ${action}`,
  );
}

/** Audit row (with each person's line totals before and after) and `deal.*` event, both carrying the deal as it is now. */
export async function announce(
  tx: Tx,
  ctx: Ctx,
  action: string,
  type: EventType,
  before: repo.DealRecord,
  now: repo.DealRecord,
  lineTotals: { before: LineTotals; after: LineTotals },
): Promise<void> {
  const after = repo.toDeal(now);
  await audit(tx, ctx, {
    action,
    resource: "deal",
    resourceId: before.id,
    before: repo.toDeal(before),
    after,
    lineTotals,
  });
  await emit(tx, ctx, type, { object: after });
}

/*
 * approved → disputed (open) and disputed → approved (resolve), API.md §4. Both lock the deal row
 * first, then the dispute, so they serialize with every other transition of the deal.
 */

export function wrongStatus(deal: repo.DealRecord, only: string, action: string): AppError {
  return new AppError("invalid_transition", `Deal ${deal.id} is ${deal.status}; only ${only} deals can be ${action}`);
}

export async function lockedDeal(tx: Tx, id: string): Promise<repo.DealRecord> {
  const deal = await repo.lockDeal(tx, id);
  if (!deal) throw notFound("Deal", id);
  return deal;
}

/**
 * The deal's audit row (and event, for opening) for a dispute's transition, from the lock's and the
 * update's records, with each person's line totals before and after.
 */
export async function dealChanged(
  tx: Tx,
  ctx: Ctx,
  change: { action: string; before: repo.DealRecord; now: repo.DealRecord },
  lineTotals: { before: LineTotals; after: LineTotals },
  emitType?: "deal.disputed",
) {
  const { action, before, now } = change;
  const after = repo.toDeal(now);
  await audit(tx, ctx, {
    action,
    resource: "deal",
    resourceId: before.id,
    before: repo.toDeal(before),
    after,
    lineTotals,
  });
  if (emitType) await emit(tx, ctx, emitType, { object: after });
}

export const totalsOf = async (tx: Tx, dealId: string) => (await readLineTotals(tx, [dealId])).get(dealId)!;
