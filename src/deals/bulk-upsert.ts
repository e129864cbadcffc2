import { inTurnFor, lockForRecalc } from "../commissions/index.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { AppError, type ErrorDetail } from "../errors.js";
import { newId } from "../ids.js";
import { type DealChanges, persistDeals } from "./changes.js";
import { throwIfInvalid } from "./checks.js";
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
import type { BulkBody, BulkResult, Deal } from "./schema.js";

function duplicates(body: BulkBody): ErrorDetail[] {
  const first = new Map<string, number>();
  return body.deals.flatMap((d, i) => {
    const seen = first.get(d.external_id);
    if (seen === undefined) {
      first.set(d.external_id, i);
      return [];
    }
    return [{ param: `deals[${i}].external_id`, message: `repeats deals[${seen}].external_id (${d.external_id})` }];
  });
}

type Outcome = "created" | "updated" | "unchanged";

/** Sorts each item into a change, or a 409 detail when it would change a locked deal. */
function classify(ctx: Ctx, body: BulkBody, existing: Map<string, repo.DealRecord>) {
  const changes: DealChanges = { created: [], updated: [] };
  const outcomes: { outcome: Outcome; id: string }[] = [];
  const refused: ErrorDetail[] = [];
  body.deals.forEach((item, i) => {
    const before = existing.get(item.external_id);
    const fields = writableOf(item, item.external_id);
    if (!before) {
      const record = newRecord(newId("deal", ctx.now.getTime()), ctx.now, fields);
      changes.created.push(record);
      outcomes.push({ outcome: "created", id: record.id });
    } else if (sameDeal(before, fields)) {
      outcomes.push({ outcome: "unchanged", id: before.id });
    } else {
      const update = upsertChange(ctx, before, fields);
      if (!update) {
        refused.push({
          param: `deals[${i}]`,
          message: `deal ${before.id} is ${before.status}; an upsert may change only its contract dates`,
        });
      } else {
        changes.updated.push(update);
        outcomes.push({ outcome: "updated", id: before.id });
      }
    }
  });
  return { changes, outcomes, refused };
}

/**
 * Upserts up to 1,000 deals by external_id in one transaction, all or nothing: any invalid item is a
 * 422 naming it by index, any change to a locked deal a 409; otherwise every item is saved.
 */
export async function bulkUpsert(ctx: Ctx, body: BulkBody): Promise<BulkResult> {
  requireScope(ctx, "write");
  throwIfInvalid(duplicates(body));
  throwIfInvalid(body.deals.flatMap((d, i) => contractProblems(writableOf(d, d.external_id), `deals[${i}].`)));
  const externalIds = body.deals.map((d) => d.external_id);
  const named = body.deals.flatMap((d, i) => namedUsers(d, `deals[${i}].`));
  return inTurnFor(
    ctx,
    named.map(([, id]) => id),
    () =>
      withTransaction(ctx, async (tx) => {
        await repo.lockExternalIds(tx, externalIds);
        const existing = new Map((await repo.findByExternalIds(tx, externalIds)).map((d) => [d.external_id!, d]));
        const users = [...named.map(([, id]) => id), ...creditedUsers([...existing.values()])];
        throwIfInvalid(missingUsers(named, await lockForRecalc(tx, { users })));
        const { changes, outcomes, refused } = classify(ctx, body, existing);
        if (refused.length > 0) {
          const message = refused.map((d) => `${d.param}: ${d.message}`).join("; ");
          throw new AppError("invalid_transition", `Nothing was saved: ${message}`, refused);
        }
        const { jobId, deals } = await persistDeals(tx, ctx, changes);
        const unchanged = new Map([...existing.values()].map((d) => [d.id, repo.toDeal(d)]));
        const data = outcomes.map(({ id }) => (deals.get(id) ?? unchanged.get(id)) as Deal);
        const count = (o: Outcome) => outcomes.filter((x) => x.outcome === o).length;
        return {
          data,
          meta: {
            created: count("created"),
            updated: count("updated"),
            unchanged: count("unchanged"),
            recalculation_job_id: jobId,
          },
        };
      }),
  );
}
