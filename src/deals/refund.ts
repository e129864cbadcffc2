import { bookDeal } from "../accounting/index.js";
import { audit } from "../audit/record.js";
import { announceClawbacks, planClawbacks, readLineTotals, writeClawbacks } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { emit } from "../events/emit.js";
import { newId } from "../ids.js";
import { checkEffectiveDate, checkRefundable, clawbackDeal, refundRefused } from "./clawbacks.js";
import { lineSumsOf } from "./commission-totals.js";
import { lockDealAndUsers } from "./lock.js";
import * as refunds from "./refunds-repository.js";
import * as repo from "./repository.js";
import type { Refund, RefundBody } from "./schema.js";
import { totalsOf } from "./transition.js";

/**
 * A refund of part of an approved or paid deal (API.md §14): the deal's status stays; each person's clawback
 * line per plan takes back the refunded share (cumulative, so repeated refunds never drift). Refunding the
 * whole arr_amount is not a cancellation.
 */
export async function refundDeal(ctx: Ctx, id: string, input: RefundBody): Promise<Refund> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const before = await lockDealAndUsers(tx, id, []);
    checkEffectiveDate(before, input.effective_date);
    checkRefundable(before, input.amount);
    const refused = refundRefused(before);
    if (refused) throw refused;
    const totalsBefore = await totalsOf(tx, id);
    const earlier = await refunds.refundsOf(tx, id);
    const refundId = newId("rfd", ctx.now.getTime());
    const { amount, effective_date } = input;
    const reason = input.reason ?? null;
    await refunds.insertRefund(tx, { id: refundId, deal_id: id, amount, effective_date, reason, created_at: ctx.now });
    const planned = await planClawbacks(tx, clawbackDeal(before), earlier, {
      type: "refund",
      effective_date,
      amount,
      refund_id: refundId,
      reason,
    });
    const written = await writeClawbacks(tx, ctx, id, planned, refundId);
    const refund = await refunds.setRefundLines(
      tx,
      refundId,
      written.map((l) => l.id),
    );
    const refunded = await refunds.addRefunded(tx, before, amount, ctx.now);
    await bookDeal(tx, id, before);
    // The clawback lines join the lines the lock read.
    const after = { ...refunded, line_sums: [...(before.line_sums ?? []), ...lineSumsOf(written)] };
    const object = repo.toDeal(after);
    await audit(tx, ctx, {
      action: "deal.refund",
      resource: "deal",
      resourceId: id,
      before: repo.toDeal(before),
      after: object,
      lineTotals: { before: totalsBefore, after: (await readLineTotals(tx, [id])).get(id)! },
    });
    await emit(tx, ctx, "deal.refunded", { object, refund });
    await announceClawbacks(tx, ctx, written);
    return refund;
  });
}
