import { type Ctx, requireScope, withTransaction } from "../context.js";
import { persistDeals } from "./changes.js";
import { checkExternalId, invalidTransition, throwIfInvalid } from "./checks.js";
import { detailOf, detailOfRecord } from "./detail.js";
import { lockDealAndUsers } from "./lock.js";
import { contractProblems, LOCKED_STATUSES, namedUsers, patched, sameButContract, sameDeal } from "./records.js";
import * as repo from "./repository.js";
import type { DealDetail, UpdateDealBody } from "./schema.js";

export async function updateDeal(ctx: Ctx, id: string, input: UpdateDealBody): Promise<DealDetail> {
  requireScope(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    if (input.external_id) await repo.lockExternalIds(tx, [input.external_id]);
    const before = await lockDealAndUsers(tx, id, namedUsers(input));
    await ctx.precondition?.(tx);
    const next = patched(before, input);
    throwIfInvalid(contractProblems(next));
    const locked = LOCKED_STATUSES.has(before.status);
    // API.md §14: the contract dates move no line, so a change to only them is allowed in every status.
    if (locked && !sameButContract(before, next, true)) throw invalidTransition(before, "edited");
    if ((locked || before.status === "pending") && sameDeal(before, next, true)) {
      return detailOfRecord(tx, before, null);
    }
    await checkExternalId(tx, next.external_id, id);
    const contractOnly = before.status !== "rejected" && sameButContract(before, next, true);
    const after = contractOnly
      ? { ...next, updated_at: ctx.now }
      : { ...next, status: "pending" as const, rejection_reason: null, updated_at: ctx.now };
    const { jobId } = await persistDeals(tx, ctx, { created: [], updated: [{ before, after, contractOnly }] });
    return detailOf(tx, id, jobId);
  });
}
