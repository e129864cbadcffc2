import { inTurnFor, lockForRecalc } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { validationError } from "../errors.js";
import { newId } from "../ids.js";
import { persistDeals } from "./changes.js";
import { invalidTransition, throwIfInvalid } from "./checks.js";
import { detailOf } from "./detail.js";
import {
  contractProblems,
  creditedUsers,
  missingUsers,
  namedUsers,
  newRecord,
  sameDeal,
  upsertChange,
  writableOf,
} from "./records.js";
import * as repo from "./repository.js";
import type { CreateDealBody, DealDetail } from "./schema.js";

export interface UpsertResult {
  created: boolean;
  deal: DealDetail;
}

/**
 * PUT by CRM id: the body replaces the writable fields whole (omitted ones take their defaults).
 * Equal to the stored deal → a no-op in any status; a change to a locked deal → 409.
 */
export async function upsertDeal(ctx: Ctx, externalId: string, input: CreateDealBody): Promise<UpsertResult> {
  requireScope(ctx, "write");
  if (input.external_id != null && input.external_id !== externalId) {
    throw validationError("external_id", `must equal the external_id in the path (${externalId}) or be left out`);
  }
  const named = namedUsers(input);
  return inTurnFor(
    ctx,
    named.map(([, id]) => id),
    () =>
      withTransaction(ctx, async (tx) => {
        await repo.lockExternalIds(tx, [externalId]);
        const [seen] = await repo.findByExternalIds(tx, [externalId]);
        const known = await lockForRecalc(tx, {
          users: [...named.map(([, id]) => id), ...(seen ? creditedUsers([seen]) : [])],
        });
        throwIfInvalid(missingUsers(named, known));
        const fields = writableOf(input, externalId);
        throwIfInvalid(contractProblems(fields));
        if (!seen) {
          await ctx.precondition?.(tx); // If-Match on a deal that does not exist yet fails (412)
          const record = newRecord(newId("deal", ctx.now.getTime()), ctx.now, fields);
          const { jobId } = await persistDeals(tx, ctx, { created: [record], updated: [] });
          return { created: true, deal: await detailOf(tx, record.id, jobId) };
        }
        const before = (await repo.lockDeal(tx, seen.id))!;
        await ctx.precondition?.(tx);
        if (sameDeal(before, fields)) return { created: false, deal: await detailOf(tx, before.id, null) };
        const update = upsertChange(ctx, before, fields);
        if (!update) throw invalidTransition(before, "changed by an upsert");
        const { jobId } = await persistDeals(tx, ctx, { created: [], updated: [update] });
        return { created: false, deal: await detailOf(tx, before.id, jobId) };
      }),
  );
}
