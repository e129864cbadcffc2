import { audit } from "../audit/record.js";
import type { Ctx, Tx } from "../context.js";
import { AppError, notFound } from "../errors.js";
import { emit } from "../events/emit.js";
import { newId } from "../ids.js";
import * as repo from "./repository.js";
import type { Dispute, OpenDisputeBody } from "./schema.js";

/*
 * A dispute's own records. Opening and resolving one is a transition of its deal, which the deals
 * feature drives (it holds the deal row locked); these functions write the dispute's side in its transaction.
 */

/** The stored dispute, exact amounts as decimal strings (the resolution computes with them). */
export type DisputeRow = repo.DisputeRow;
/** What an admin's resolution stores on the dispute. */
export type Resolution = repo.Resolution;

/**
 * A new open dispute on the deal (which the caller holds locked): its row, audit row and `dispute.opened`.
 * A rep's or manager's is about their own lines (API.md §20 b): they cannot see the deal's total.
 */
export async function recordOpenedDispute(tx: Tx, ctx: Ctx, dealId: string, input: OpenDisputeBody): Promise<Dispute> {
  const { actor } = ctx;
  const opener = actor.type === "user" && (actor.role === "rep" || actor.role === "manager") ? actor.userId : null;
  const row: DisputeRow = {
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
    amount_scope: opener ? "user" : "deal",
    scope_user_id: opener,
  };
  await repo.insertDispute(tx, row);
  const dispute = repo.toDispute(row);
  await audit(tx, ctx, { action: "dispute.open", resource: "dispute", resourceId: row.id, after: dispute });
  await emit(tx, ctx, "dispute.opened", { object: dispute });
  return dispute;
}

/** Locks a dispute for its resolution (after its deal's row: that order serializes it with every transition). */
export async function lockOpenDispute(tx: Tx, id: string): Promise<DisputeRow> {
  const row = await repo.lockDispute(tx, id);
  if (!row) throw notFound("Dispute", id);
  if (row.status !== "open") throw new AppError("invalid_transition", `Dispute ${id} is already resolved`);
  return row;
}

/** Resolves a dispute locked by `lockOpenDispute`: the stored resolution, its audit row and `dispute.resolved`. */
export async function recordResolution(tx: Tx, ctx: Ctx, open: DisputeRow, resolution: Resolution): Promise<Dispute> {
  const before = repo.toDispute(open);
  const after = repo.toDispute(await repo.saveResolution(tx, open.id, resolution));
  await audit(tx, ctx, { action: "dispute.resolve", resource: "dispute", resourceId: open.id, before, after });
  await emit(tx, ctx, "dispute.resolved", { object: after });
  return after;
}
