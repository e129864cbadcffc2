import { MAY } from "../access/index.js";
import { audit } from "../audit/record.js";
import { lockPayments } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { conflict, notFound, validationError } from "../errors.js";
import { emit } from "../events/emit.js";
import { drawOf } from "./read.js";
import * as repo from "./repository.js";
import type { Draw, EndDrawBody } from "./schema.js";

const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * POST /draws/{id}/end: ends_on becomes effective_date; periods ending after it never advance (no
 * proration). After ends_on or before the day before starts_on → 422; before a settled period's end → 409.
 */
export async function endDraw(ctx: Ctx, id: string, input: EndDrawBody): Promise<Draw> {
  requireScope(ctx, "admin", MAY.draws);
  return withTransaction(ctx, async (tx) => {
    await lockPayments(tx, "run");
    const row = await repo.lockDraw(tx, id);
    if (!row) throw notFound("Draw", id);
    const date = input.effective_date;
    if (date > row.ends_on) throw validationError("effective_date", `must not be after ends_on (${row.ends_on})`);
    if (date < dayBefore(row.starts_on))
      throw validationError(
        "effective_date",
        `must not be before ${dayBefore(row.starts_on)}, the day before starts_on`,
      );
    const settled = await repo.lastSettledEnd(tx, id);
    if (settled !== null && date < settled)
      throw conflict(`A payout run already settled the draw's period ending ${settled}; end it on or after that day`);
    const before = await drawOf(tx, row, ctx.now);
    const after = await drawOf(tx, await repo.updateDraw(tx, id, { ends_on: date, updated_at: ctx.now }), ctx.now);
    await audit(tx, ctx, { action: "draw.end", resource: "draw", resourceId: id, before, after });
    await emit(tx, ctx, "draw.ended", { object: after });
    return after;
  });
}
