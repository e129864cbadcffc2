import { MAY } from "../access/index.js";
import { audit } from "../audit/record.js";
import {
  bucketsOfDeals,
  type LineTotals,
  linesOfDeal,
  lineTotalsOf,
  lockDealLines,
  markDealLinesPaid,
  recalculate,
  refreshTotals,
  voidDealLines,
} from "../commissions/index.js";
import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import { AppError, notFound } from "../errors.js";
import type { EventType } from "../events/catalogue.js";
import { emit } from "../events/emit.js";
import * as repo from "./repository.js";
import type { DealDetail, DealStatus } from "./schema.js";
import { detailOfRecord, detailWithLines } from "./service-read.js";
import { lockDealAndUsers } from "./service-write.js";
import { setStatus } from "./transitions-repository.js";

/*
 * The admin transitions of API.md §4 "Deal states". Each locks the deal row (SELECT … FOR UPDATE)
 * before reading its status, so of concurrent transitions exactly one wins and the rest see the
 * winner's status (409). Approval and rejection also lock the credited users first, in the global
 * order recalculations use, because both change what a recalculation may rewrite. The locked record
 * and the one the status update returns are the only reads of the deal: the audit row, the event and
 * the response are built from them.
 */

type Action = "approved" | "rejected" | "marked paid";
const ONLY: Record<Action, DealStatus> = { approved: "pending", rejected: "pending", "marked paid": "approved" };

function notAllowed(deal: repo.DealRecord, action: Action): AppError {
  return new AppError(
    "invalid_transition",
    `Deal ${deal.id} is ${deal.status}; only ${ONLY[action]} deals can be ${action}`,
  );
}

/** Audit row (with each person's line totals before and after) and `deal.*` event, both carrying the deal as it is now. */
async function announce(
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

/** pending → approved: its lines become approved and locked; no recalculation rewrites them again. */
export async function approveDeal(ctx: Ctx, id: string): Promise<DealDetail> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const before = await lockDealAndUsers(tx, id, []);
    if (before.status !== ONLY.approved) throw notAllowed(before, "approved");
    const after = await setStatus(tx, before, { status: "approved", approved_at: ctx.now, updated_at: ctx.now });
    await lockDealLines(tx, id);
    // Approving moves no amount: the lines read for the response give the totals before and after.
    const lines = await linesOfDeal(tx, id);
    const totals = lineTotalsOf(lines);
    await announce(tx, ctx, "deal.approve", "deal.approved", before, after, { before: totals, after: totals });
    return detailWithLines(after, lines, null);
  });
}

/**
 * pending → rejected: its lines are voided (out of every total and attainment), and the later pending
 * deals of the buckets it sat in are recalculated without it. The status is set once its total is
 * refreshed, so the record it returns is final: the recalculation leaves a rejected deal's row alone.
 */
export async function rejectDeal(ctx: Ctx, id: string, reason: string): Promise<DealDetail> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const before = await lockDealAndUsers(tx, id, []);
    if (before.status !== ONLY.rejected) throw notAllowed(before, "rejected");
    const left = await bucketsOfDeals(tx, [id]);
    const voided = await voidDealLines(tx, id);
    await refreshTotals(tx, ctx.now, [id]);
    const after = await setStatus(tx, before, { status: "rejected", rejection_reason: reason, updated_at: ctx.now });
    const { jobId } = await recalculate(tx, ctx, [{ type: "deals", deal_ids: [id], buckets: left }], {
      primaryDeals: [id],
      announce: () => announce(tx, ctx, "deal.reject", "deal.rejected", before, after, { before: voided, after: {} }),
    });
    return detailOfRecord(tx, after, jobId);
  });
}

/** approved → paid: `paid_at`, and its approved lines (adjustments too) become `paid`. */
export async function markDealPaid(ctx: Ctx, id: string): Promise<DealDetail> {
  requireScope(ctx, "admin", MAY.markPaid);
  return withTransaction(ctx, async (tx) => {
    const before = await repo.lockDeal(tx, id);
    if (!before) throw notFound("Deal", id);
    if (before.status !== ONLY["marked paid"]) throw notAllowed(before, "marked paid");
    const after = await setStatus(tx, before, { status: "paid", paid_at: ctx.now, updated_at: ctx.now });
    await markDealLinesPaid(tx, id);
    const lines = await linesOfDeal(tx, id);
    const totals = lineTotalsOf(lines);
    await announce(tx, ctx, "deal.mark_paid", "deal.paid", before, after, { before: totals, after: totals });
    return detailWithLines(after, lines, null);
  });
}
