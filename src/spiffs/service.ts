import { audit } from "../audit/record.js";
import { type DateRange, lockForRecalc, recalculate } from "../commissions/index.js";
import { type Ctx, requireScope, type Tx, withTransaction } from "../context.js";
import { canonical } from "../db/json.js";
import { AppError, notFound, validationError } from "../errors.js";
import { offsetOf, type Page } from "../http/pagination.js";
import { newId } from "../ids.js";
import * as repo from "./repository.js";
import type { CreateSpiffBody, ListSpiffsQuery, Spiff, SpiffWritten, UpdateSpiffBody } from "./schema.js";

export async function listSpiffs(ctx: Ctx, query: ListSpiffsQuery): Promise<Page<Spiff>> {
  requireScope(ctx, "read");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listSpiffs(ctx.db, query, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}

export async function getSpiff(ctx: Ctx, id: string): Promise<Spiff> {
  requireScope(ctx, "read");
  const spiff = await repo.findSpiff(ctx.db, id);
  if (!spiff) throw notFound("SPIFF", id);
  return repo.toSpiff(spiff);
}

function criteriaOf(input: CreateSpiffBody["criteria"]): repo.SpiffRecord["criteria"] {
  return {
    min_arr_amount: input.min_arr_amount ?? null,
    deal_types: input.deal_types ?? null,
    user_ids: input.user_ids ?? null,
  };
}

/** Dates ordered and every listed user real (422 naming the index). Takes the exclusive SPIFF lock first. */
async function checkSpiff(tx: Tx, r: repo.SpiffRecord): Promise<void> {
  const userIds = r.criteria.user_ids ?? [];
  const known = await lockForRecalc(tx, { spiffs: "exclusive", users: userIds });
  if (r.ends_on < r.starts_on) throw validationError("ends_on", `must be on or after starts_on (${r.starts_on})`);
  const details = userIds.flatMap((id, i) =>
    known.has(id) ? [] : [{ param: `criteria.user_ids[${i}]`, message: `user ${id} does not exist` }],
  );
  if (details.length > 0) {
    throw new AppError("validation_error", details.map((d) => `${d.param} ${d.message}`).join("; "), details);
  }
}

const windowOf = (s: repo.SpiffRecord): DateRange => ({ from: s.starts_on, to: s.ends_on });

/** SPIFF changes move SPIFF lines only: the pending deals closing in the windows are redone. */
async function recalcWindows(tx: Tx, ctx: Ctx, spiffs: repo.SpiffRecord[]): Promise<string | null> {
  const ranges = spiffs.filter((s) => s.active).map(windowOf);
  if (ranges.length === 0) return null;
  return (await recalculate(tx, ctx, [{ type: "spiff", ranges }])).jobId;
}

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

/** Returns the recalculation job id, if the change went to the background. */
export async function deleteSpiff(ctx: Ctx, id: string): Promise<string | null> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    await lockForRecalc(tx, { spiffs: "exclusive" });
    const before = await repo.lockSpiff(tx, id);
    if (!before) throw notFound("SPIFF", id);
    await repo.deleteSpiff(tx, id);
    await audit(tx, ctx, { action: "spiff.delete", resource: "spiff", resourceId: id, before: repo.toSpiff(before) });
    return recalcWindows(tx, ctx, [before]);
  });
}
