import { audit } from "../audit/record.js";
import { lockForRecalc } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { canonical } from "../db/json.js";
import { notFound } from "../errors.js";
import { checkSpiff, criteriaOf, recalcWindows } from "./records.js";
import * as repo from "./repository.js";
import type { SpiffWritten, UpdateSpiffBody } from "./schema.js";

function merged(before: repo.SpiffRecord, input: UpdateSpiffBody): repo.SpiffRecord {
  const next = { ...before };
  if (input.name !== undefined) next.name = input.name;
  if (input.description !== undefined) next.description = input.description;
  if (input.currency !== undefined) next.currency = input.currency;
  if (input.starts_on !== undefined) next.starts_on = input.starts_on;
  if (input.ends_on !== undefined) next.ends_on = input.ends_on;
  if (input.criteria !== undefined) next.criteria = criteriaOf(input.criteria);
  if (input.payout !== undefined) next.payout = input.payout;
  if (input.active !== undefined) next.active = input.active;
  if (input.fx_max_age_days !== undefined) next.fx_max_age_days = input.fx_max_age_days;
  return next;
}

export async function updateSpiff(ctx: Ctx, id: string, input: UpdateSpiffBody): Promise<SpiffWritten> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    await lockForRecalc(tx, { spiffs: "exclusive" });
    const before = await repo.lockSpiff(tx, id);
    if (!before) throw notFound("SPIFF", id);
    await ctx.precondition?.(tx);
    const next = merged(before, input);
    await checkSpiff(tx, next);
    const view = (s: repo.SpiffRecord) => canonical(repo.toSpiff({ ...s, updated_at: before.updated_at }));
    if (view(before) === view(next)) return { ...repo.toSpiff(before), recalculation_job_id: null };
    const after = repo.toSpiff(await repo.updateSpiff(tx, { ...next, updated_at: ctx.now }));
    await audit(tx, ctx, {
      action: "spiff.update",
      resource: "spiff",
      resourceId: id,
      before: repo.toSpiff(before),
      after,
    });
    return { ...after, recalculation_job_id: await recalcWindows(tx, ctx, [before, next]) };
  });
}
