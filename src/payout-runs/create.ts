import { MAY } from "../access/index.js";
import { audit } from "../audit/record.js";
import { lockPayments } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { validationError } from "../errors.js";
import { emit } from "../events/emit.js";
import { newId } from "../ids.js";
import { actorId, periodStart, writePayees } from "./payees.js";
import { detailOf, summaryOf } from "./read.js";
import * as repo from "./repository.js";
import type { CreatePayoutRunBody, PayoutRunDetail } from "./schema.js";
import { settleDraws } from "./settle-draws.js";

/**
 * A draft run (API.md §13): the lines eligible through `through` that no run holds, netted per person and
 * currency. Creations (and finalizes) take turns, so a line is in at most one run and deficits chain.
 */
export async function createPayoutRun(ctx: Ctx, input: CreatePayoutRunBody): Promise<PayoutRunDetail> {
  requireScope(ctx, "admin", MAY.payoutRuns);
  const today = ctx.now.toISOString().slice(0, 10);
  if (input.through > today) throw validationError("through", `must not be after today (${today}, UTC)`);
  if (input.pay_date < input.through)
    throw validationError("pay_date", `must not be before through (${input.through})`);
  const userIds = input.user_ids ? [...new Set(input.user_ids)] : null;
  return withTransaction(ctx, async (tx) => {
    if (userIds) {
      const known = await repo.knownUsers(tx, userIds);
      const missing = userIds.filter((u) => !known.has(u));
      if (missing.length > 0) throw validationError("user_ids", `name users that do not exist: ${missing.join(", ")}`);
    }
    await lockPayments(tx, "run");
    const id = newId("prun", ctx.now.getTime());
    const percent = input.max_recovery_percent ?? "100";
    const created = await repo.insertRun(tx, {
      id,
      status: "draft",
      through: input.through,
      pay_date: input.pay_date,
      currency: input.currency ?? null,
      user_ids: userIds ? JSON.stringify(userIds) : null,
      max_recovery_percent: percent,
      period_start: periodStart(input.through, await repo.latestThrough(tx, id)),
      period_end: input.through,
      created_at: ctx.now,
      created_by: actorId(ctx.actor),
    });
    await repo.takeLines(tx, id, {
      through: input.through,
      currency: input.currency ?? null,
      userIds,
    });
    await settleDraws(
      tx,
      { id, through: input.through, currency: input.currency ?? null, userIds, percent, at: ctx.now },
      "finalized and drafts",
    );
    await writePayees(tx, id, percent, "finalized and drafts");
    const summary = await summaryOf(tx, created);
    await audit(tx, ctx, { action: "payout_run.create", resource: "payout_run", resourceId: id, after: summary });
    await emit(tx, ctx, "payout_run.created", { object: summary });
    return detailOf(tx, created);
  });
}
