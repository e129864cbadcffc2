import { type Ctx, requireScope, withTransaction } from "../context.js";
import { persistDeals } from "./changes.js";
import { checkExternalId, invalidTransition } from "./checks.js";
import { detailOf, detailOfRecord } from "./detail.js";
import { lockDealAndUsers } from "./lock.js";
import { LOCKED_STATUSES, namedUsers, patched, sameDeal } from "./records.js";
import * as repo from "./repository.js";
import type { DealDetail, UpdateDealBody } from "./schema.js";

export async function updateDeal(ctx: Ctx, id: string, input: UpdateDealBody): Promise<DealDetail> {
  requireScope(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    if (input.external_id) await repo.lockExternalIds(tx, [input.external_id]);
    const before = await lockDealAndUsers(tx, id, namedUsers(input));
    await ctx.precondition?.(tx);
    if (LOCKED_STATUSES.has(before.status)) throw invalidTransition(before, "edited");
    const next = patched(before, input);
    if (before.status === "pending" && sameDeal(before, next, true)) return detailOfRecord(tx, before, null);
    await checkExternalId(tx, next.external_id, id);
    const after = { ...next, status: "pending" as const, rejection_reason: null, updated_at: ctx.now };
    const { jobId } = await persistDeals(tx, ctx, { created: [], updated: [{ before, after }] });
    return detailOf(tx, id, jobId);
  });
}
