import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { newId } from "../ids.js";
import { checkSpiff, criteriaOf, recalcWindows } from "./records.js";
import * as repo from "./repository.js";
import type { CreateSpiffBody, SpiffWritten } from "./schema.js";

export async function createSpiff(ctx: Ctx, input: CreateSpiffBody): Promise<SpiffWritten> {
  requireScope(ctx, "admin");
  const record: repo.SpiffRecord = {
    id: newId("spiff", ctx.now.getTime()),
    name: input.name,
    description: input.description ?? null,
    currency: input.currency,
    starts_on: input.starts_on,
    ends_on: input.ends_on,
    criteria: criteriaOf(input.criteria),
    payout: input.payout,
    active: input.active,
    fx_max_age_days: input.fx_max_age_days,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  return withTransaction(ctx, async (tx) => {
    await checkSpiff(tx, record);
    const spiff = repo.toSpiff(await repo.insertSpiff(tx, record));
    await audit(tx, ctx, { action: "spiff.create", resource: "spiff", resourceId: spiff.id, after: spiff });
    return { ...spiff, recalculation_job_id: await recalcWindows(tx, ctx, [record]) };
  });
}
