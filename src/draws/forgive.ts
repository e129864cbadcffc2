import { MAY } from "../access/index.js";
import { audit } from "../audit/record.js";
import { lockPayments } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { notFound, validationError } from "../errors.js";
import { emit } from "../events/emit.js";
import { minorUnitMessage } from "../http/commission-fields.js";
import { newId } from "../ids.js";
import { gt, minus, moneyText, parse, sign, tooManyDecimals, ZERO } from "../money/index.js";
import { drawOf } from "./read.js";
import { balanceOf } from "./records.js";
import * as repo from "./repository.js";
import type { Draw, ForgiveDrawBody } from "./schema.js";

/**
 * POST /draws/{id}/forgive: a `forgiveness` entry of `amount` (default the balance), no line. A
 * non-recoverable draw, a zero balance or an amount above the balance → 422.
 */
export async function forgiveDraw(ctx: Ctx, id: string, input: ForgiveDrawBody): Promise<Draw> {
  requireScope(ctx, "admin", MAY.draws);
  return withTransaction(ctx, async (tx) => {
    await lockPayments(tx, "run");
    const row = await repo.lockDraw(tx, id);
    if (!row) throw notFound("Draw", id);
    if (row.kind !== "recoverable") throw validationError("id", "names a non-recoverable draw: it has no balance");
    if (input.amount !== undefined && tooManyDecimals(input.amount, row.currency))
      throw validationError("amount", minorUnitMessage(row.currency));
    const balance = balanceOf(row, await repo.entriesOf(tx, id));
    if (sign(balance) <= 0) throw validationError("id", "names a draw with a zero balance: nothing to forgive");
    const amount = input.amount === undefined ? balance : parse(input.amount);
    if (gt(amount, balance))
      throw validationError("amount", `must not be above the balance (${moneyText(balance, row.currency)})`);
    const before = await drawOf(tx, row, ctx.now);
    await repo.insertEntry(tx, {
      id: newId("drwe", ctx.now.getTime()),
      draw_id: id,
      type: "forgiveness",
      amount: moneyText(minus(ZERO, amount), row.currency),
      line_id: null,
      payout_run_id: null,
      reason: input.reason,
      created_at: ctx.now,
    });
    const after = await drawOf(tx, await repo.updateDraw(tx, id, { updated_at: ctx.now }), ctx.now);
    await audit(tx, ctx, { action: "draw.forgive", resource: "draw", resourceId: id, before, after });
    await emit(tx, ctx, "draw.forgiven", {
      object: after,
      amount: Number(moneyText(amount, row.currency)),
      reason: input.reason,
    });
    return after;
  });
}
