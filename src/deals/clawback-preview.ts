import { MAY } from "../access/index.js";
import { planClawbacks } from "../commissions/index.js";
import { type Ctx, requireScope } from "../context.js";
import { notFound, validationError } from "../errors.js";
import { cancelRefused, checkEffectiveDate, checkRefundable, clawbackDeal, refundRefused } from "./clawbacks.js";
import { refundsOf } from "./refunds-repository.js";
import * as repo from "./repository.js";
import type { ClawbackPreview, ClawbackPreviewBody } from "./schema.js";

/**
 * POST /deals/{id}/clawback-preview (API.md §14): what a cancel or a refund would claw back, computed by the
 * code the action runs, with the action's checks (422, then 409 for a status it refuses); nothing is written.
 */
export async function previewClawbacks(ctx: Ctx, id: string, body: ClawbackPreviewBody): Promise<ClawbackPreview> {
  requireScope(ctx, "read", MAY.previewClawbacks);
  // The body's own rule again: MCP arguments reach here without the REST body's refinement.
  if (body.type === "refund" && body.amount === undefined) throw validationError("amount", "is required for a refund");
  if (body.type === "cancel" && body.amount !== undefined) {
    throw validationError("amount", "is only for a refund (a cancel claws back by its policy)");
  }
  const deal = await repo.findDeal(ctx.db, id);
  if (!deal) throw notFound("Deal", id);
  checkEffectiveDate(deal, body.effective_date);
  if (body.type === "refund") checkRefundable(deal, body.amount!);
  const refused = body.type === "cancel" ? cancelRefused(deal) : refundRefused(deal);
  if (refused) throw refused;
  const event =
    body.type === "cancel"
      ? { type: "cancel" as const, effective_date: body.effective_date }
      : { type: "refund" as const, effective_date: body.effective_date, amount: body.amount!, refund_id: null };
  return planClawbacks(ctx.db, clawbackDeal(deal), await refundsOf(ctx.db, id), event);
}
