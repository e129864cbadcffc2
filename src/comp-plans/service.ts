import { visibleUserIds } from "../access/index.js";
import { audit } from "../audit/record.js";
import { correctLockedHistory, lockForRecalc, recalculate, toPlanInput } from "../commissions/index.js";
import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import type { Db } from "../db/schema.js";
import { notFound } from "../errors.js";
import { offsetOf, type Page } from "../http/pagination.js";
import { newId } from "../ids.js";
import { centsNumber } from "../money/index.js";
import { usersAssignedTo } from "./assignments-repository.js";
import * as repo from "./repository.js";
import type {
  CompPlan,
  CompPlanWritten,
  CreatePlanBody,
  ListPlansQuery,
  ListPlanVersionsQuery,
  PlanVersion,
  UpdatePlanBody,
} from "./schema.js";
import { checkPlanTerms, normalizeTerms, sameTerms } from "./validate.js";

export async function listPlans(ctx: Ctx, query: ListPlansQuery): Promise<Page<CompPlan>> {
  requireScope(ctx, "read");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listPlans(ctx.db, query, await visibleUserIds(ctx), limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}

export async function getPlan(ctx: Ctx, id: string): Promise<CompPlan> {
  requireScope(ctx, "read");
  const plan = await repo.findPlanRecord(ctx.db, id);
  if (!plan || !(await repo.planSeen(ctx.db, id, await visibleUserIds(ctx)))) throw notFound("Comp plan", id);
  return repo.toPlan(plan);
}

/** Every version of a plan, newest first, for whoever sees the plan (404 otherwise, as GET /comp-plans/{id}). */
export async function listPlanVersions(ctx: Ctx, id: string, query: ListPlanVersionsQuery): Promise<Page<PlanVersion>> {
  await getPlan(ctx, id);
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listVersions(ctx.db, id, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}

export async function createPlan(ctx: Ctx, input: CreatePlanBody): Promise<CompPlanWritten> {
  requireScope(ctx, "admin");
  const record: repo.PlanRecord = {
    id: newId("plan", ctx.now.getTime()),
    name: input.name,
    description: input.description ?? null,
    status: input.status,
    ...normalizeTerms({
      currency: input.currency,
      period: input.period,
      quota: input.quota ?? null,
      base_rate: input.base_rate ?? null,
      tiers: input.tiers ?? [],
      deal_type_multipliers: input.deal_type_multipliers as Record<string, string>,
      min_deal_amount: input.min_deal_amount ?? null,
      cap_per_period: input.cap_per_period ?? null,
      effective_from: input.effective_from,
      effective_to: input.effective_to ?? null,
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

function merged(before: repo.PlanRecord, input: UpdatePlanBody): repo.PlanRecord {
  const next: repo.PlanRecord = { ...before };
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || key === "retroactive") continue;
    if (key === "tiers") next.tiers = (value as repo.PlanTerms["tiers"] | null) ?? [];
    else (next as unknown as Record<string, unknown>)[key] = value;
  }
  return { ...next, ...normalizeTerms(next) };
}

/** What a PATCH body makes of the stored plan; the impact preview and the update both start here. */
export interface PlanEdit {
  record: repo.PlanRecord;
  termsChanged: boolean;
  statusChanged: boolean;
  newVersion: boolean;
  changed: boolean;
}

export async function planEdit(db: Db, before: repo.PlanRecord, input: UpdatePlanBody, now: Date): Promise<PlanEdit> {
  const next = merged(before, input);
  checkPlanTerms(next);
  const termsChanged = !sameTerms(before, next);
  const statusChanged = before.status !== next.status;
  const changed = termsChanged || statusChanged || before.name !== next.name || before.description !== next.description;
  const newVersion =
    termsChanged && (before.status === "active" || (await repo.versionInUse(db, before.id, before.version)));
  const record = {
    ...next,
    version: before.version + (newVersion ? 1 : 0),
    updated_at: changed ? now : before.updated_at,
  };
  return { record, termsChanged, statusChanged, newVersion, changed };
}

/** Locks the users a plan edit can move (after the plan row: the global order is plans, then users). */
async function lockAssignedUsers(tx: Tx, planId: string): Promise<void> {
  await lockForRecalc(tx, { users: await usersAssignedTo(tx, planId) });
}

/**
 * Editing the terms of an active plan (or of a version lines already use) creates a new version;
 * name, description and status edits keep it. Terms, dates and status changes recalculate. With
 * `retroactive`, locked lines the new terms reprice get their adjustment lines in the same transaction.
 */
export async function updatePlan(ctx: Ctx, id: string, input: UpdatePlanBody): Promise<CompPlanWritten> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    await lockForRecalc(tx);
    const before = await repo.lockPlanRecord(tx, id);
    if (!before) throw notFound("Comp plan", id);
    await ctx.precondition?.(tx);
    const edit = await planEdit(tx, before, input, ctx.now);
    const retroactive = input.retroactive === true;
    const none = retroactive ? { retroactive_adjustments: { count: 0, sum: 0 } } : {};
    if (!edit.changed) return { ...repo.toPlan(before), recalculation_job_id: null, ...none };
    const { record, termsChanged, statusChanged, newVersion } = edit;
    const recalculates = termsChanged || statusChanged;
    if (recalculates) await lockAssignedUsers(tx, id);
    const after = repo.toPlan(await repo.updatePlan(tx, record, newVersion));
    await audit(tx, ctx, {
      action: "comp_plan.update",
      resource: "comp_plan",
      resourceId: id,
      before: repo.toPlan(before),
      after,
    });
    const corrected =
      retroactive && termsChanged ? await correctLockedHistory(tx, ctx, toPlanInput(record), before.version) : null;
    const recalc = recalculates ? await recalculate(tx, ctx, [{ type: "plan", plan_id: id }]) : { jobId: null };
    return {
      ...after,
      recalculation_job_id: recalc.jobId,
      ...(corrected ? { retroactive_adjustments: { count: corrected.count, sum: centsNumber(corrected.sum) } } : none),
    };
  });
}
