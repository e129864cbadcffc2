import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { newId } from "../ids.js";
import * as repo from "./repository.js";
import type { CompPlanWritten, CreatePlanBody } from "./schema.js";
import { checkPlanTerms, normalizeTerms } from "./validate.js";

export async function createPlan(ctx: Ctx, input: CreatePlanBody): Promise<CompPlanWritten> {
  requireScope(ctx, "admin");
  const record: repo.PlanRecord = {
    id: newId("plan", ctx.now.getTime()),
    name: input.name,
    description: input.description ?? null,
    status: input.status,
    kind: input.kind,
    ...normalizeTerms({
      currency: input.currency,
      period: input.period,
      quota: input.quota ?? null,
      base_rate: input.base_rate ?? null,
      tiers: input.tiers ?? [],
      deal_type_multipliers: input.deal_type_multipliers as Record<string, string>,
      min_deal_amount: input.min_deal_amount ?? null,
      cap_per_period: input.cap_per_period ?? null,
      override_levels: input.override_levels ?? null,
      effective_from: input.effective_from,
      effective_to: input.effective_to ?? null,
      clawback: input.clawback ?? null,
      fx_max_age_days: input.fx_max_age_days,
    }),
    version: 1,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  checkPlanTerms(record);
  return withTransaction(ctx, async (tx) => {
    const plan = repo.toPlan(await repo.insertPlan(tx, record));
    await audit(tx, ctx, { action: "comp_plan.create", resource: "comp_plan", resourceId: plan.id, after: plan });
    return { ...plan, recalculation_job_id: null };
  });
}
