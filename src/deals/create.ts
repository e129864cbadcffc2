import { type GroupMember, inGroupedTurnFor, lockForRecalc } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { newId } from "../ids.js";
import { persistDeals } from "./changes.js";
import { checkExternalId, throwIfInvalid } from "./checks.js";
import { detailOf } from "./detail.js";
import { contractProblems, missingUsers, namedUsers, newRecord, writableOf } from "./records.js";
import * as repo from "./repository.js";
import type { CreateDealBody, DealDetail } from "./schema.js";

/**
 * Creates a pending deal and its lines. Creates for the same people that arrive while an earlier
 * change of theirs runs commit together (inGroupedTurnFor): one recalculation of their bucket for all.
 */
export async function createDeal(ctx: Ctx, input: CreateDealBody): Promise<DealDetail> {
  requireScope(ctx, "write");
  throwIfInvalid(contractProblems(writableOf(input)));
  const people = namedUsers(input).map(([, id]) => id);
  return inGroupedTurnFor(ctx, people, input, CREATES);
}

const CREATES = { kind: "deal.create", one: createOne, many: createMany };

async function createOne(ctx: Ctx, input: CreateDealBody): Promise<DealDetail> {
  const named = namedUsers(input);
  return withTransaction(ctx, async (tx) => {
    if (input.external_id) await repo.lockExternalIds(tx, [input.external_id]);
    throwIfInvalid(missingUsers(named, await lockForRecalc(tx, { users: named.map(([, id]) => id) })));
    const record = newRecord(newId("deal", ctx.now.getTime()), ctx.now, writableOf(input));
    await checkExternalId(tx, record.external_id, null);
    const { jobId } = await persistDeals(tx, ctx, { created: [record], updated: [] });
    return detailOf(tx, record.id, jobId);
  });
}

/**
 * Several creates for the same people in one transaction, each deal audited and announced as its own
 * request's. The recalculation runs as of the latest request, and any refusal fails the group (its
 * members then run one at a time).
 */
async function createMany(members: GroupMember<CreateDealBody>[]): Promise<DealDetail[]> {
  const latest = members[members.length - 1]!.ctx;
  return withTransaction(latest, async (tx) => {
    const externalIds = members.flatMap((m) => m.input.external_id ?? []);
    if (new Set(externalIds).size < externalIds.length)
      throw new Error("two creates in the group share an external_id");
    if (externalIds.length > 0) await repo.lockExternalIds(tx, externalIds);
    const named = namedUsers(members[0]!.input);
    throwIfInvalid(missingUsers(named, await lockForRecalc(tx, { users: named.map(([, id]) => id) })));
    const records = members.map((m) => newRecord(newId("deal", m.ctx.now.getTime()), m.ctx.now, writableOf(m.input)));
    for (const record of records) await checkExternalId(tx, record.external_id, null);
    const requestOf = new Map(records.map((r, i) => [r.id, members[i]!.ctx]));
    const { jobId } = await persistDeals(tx, latest, { created: records, updated: [] }, (id) => requestOf.get(id)!);
    const details: DealDetail[] = [];
    for (const record of records) details.push(await detailOf(tx, record.id, jobId));
    return details;
  });
}
