import { inTurnFor, lockForRecalc } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { newId } from "../ids.js";
import { persistDeals } from "./changes.js";
import { checkExternalId, throwIfInvalid } from "./checks.js";
import { detailOf } from "./detail.js";
import { contractProblems, missingUsers, namedUsers, newRecord, writableOf } from "./records.js";
import * as repo from "./repository.js";
import type { CreateDealBody, DealDetail } from "./schema.js";

export async function createDeal(ctx: Ctx, input: CreateDealBody): Promise<DealDetail> {
  requireScope(ctx, "write");
  throwIfInvalid(contractProblems(writableOf(input)));
  const named = namedUsers(input);
  return inTurnFor(
    ctx,
    named.map(([, id]) => id),
    () =>
      withTransaction(ctx, async (tx) => {
        if (input.external_id) await repo.lockExternalIds(tx, [input.external_id]);
        throwIfInvalid(missingUsers(named, await lockForRecalc(tx, { users: named.map(([, id]) => id) })));
        const record = newRecord(newId("deal", ctx.now.getTime()), ctx.now, writableOf(input));
        await checkExternalId(tx, record.external_id, null);
        const { jobId } = await persistDeals(tx, ctx, { created: [record], updated: [] });
        return detailOf(tx, record.id, jobId);
      }),
  );
}
