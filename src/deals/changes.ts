import { auditMany } from "../audit/record.js";
import { bucketsOfDeals, readLineTotals, recalculate, unsavedCredits } from "../commissions/index.js";
import type { Ctx, Tx } from "../context.js";
import { emitMany } from "../events/emit.js";
import * as repo from "./repository.js";
import type { Deal } from "./schema.js";

export interface DealChanges {
  created: repo.DealRecord[];
  /** `contractOnly`: only contract_start/contract_end changed (API.md §14): no line moves, nothing is recalculated. */
  updated: { before: repo.DealRecord; after: repo.DealRecord; contractOnly?: boolean }[];
}

/**
 * Saves created and updated deals and recalculates what they affect: their own lines always inline,
 * the buckets they left or joined inline too unless the change is wide (then a job). Audit rows and
 * `deal.*` events carry the final totals, and come before the `commission.calculated` events.
 */
export async function persistDeals(
  tx: Tx,
  ctx: Ctx,
  changes: DealChanges,
  /** Whose request each deal came from, when several requests commit together (group commit): their audit rows and events are theirs. */
  ctxOf: (dealId: string) => Ctx = () => ctx,
): Promise<{ jobId: string | null; deals: Map<string, Deal> }> {
  const updatedIds = changes.updated.map((u) => u.after.id);
  const ids = [...changes.created.map((d) => d.id), ...updatedIds];
  const left = await bucketsOfDeals(tx, updatedIds);
  // Each person's line totals before the change, for the audit rows (API.md §20 b).
  const totalsBefore = await readLineTotals(tx, updatedIds);
  await repo.updateDeals(
    tx,
    changes.updated.map((u) => u.after),
  );
  const deals = new Map<string, Deal>();
  const announce = async () => {
    for (const record of await repo.findDeals(tx, ids)) deals.set(record.id, repo.toDeal(record));
    const totalsAfter = await readLineTotals(tx, ids);
    const created = changes.created.map(({ id }) => deals.get(id));
    const updated = changes.updated.map(({ before }) => ({ before: repo.toDeal(before), after: deals.get(before.id) }));
    for (const [who, theirs] of byRequest([...created, ...updated.map((u) => u.after)], (d) => ctxOf(d!.id))) {
      const mine = new Set(theirs.map((d) => d!.id));
      const createdHere = created.filter((d) => mine.has(d!.id));
      const updatedHere = updated.filter((u) => mine.has(u.before.id));
      await auditMany(tx, who, [
        ...createdHere.map((after) => ({
          action: "deal.create",
          resource: "deal",
          resourceId: after!.id,
          after,
          lineTotals: { after: totalsAfter.get(after!.id)! },
        })),
        ...updatedHere.map(({ before, after }) => ({
          action: "deal.update",
          resource: "deal",
          resourceId: before.id,
          before,
          after,
          lineTotals: { before: totalsBefore.get(before.id)!, after: totalsAfter.get(before.id)! },
        })),
      ]);
      await emitMany(tx, who, [
        ...createdHere.map((object) => ({ type: "deal.created" as const, data: { object } })),
        ...updatedHere.map(({ after }) => ({ type: "deal.updated" as const, data: { object: after } })),
      ]);
    }
  };
  // Created deals are inserted once their totals are known (see recalculate's `unsaved`).
  const unsaved = {
    credits: unsavedCredits(changes.created),
    save: (totals: Map<string, string>) =>
      repo.insertDeals(
        tx,
        changes.created.map((d) => ({ ...d, total_commission: totals.get(d.id) ?? "0" })),
      ),
  };
  const moved = [
    ...changes.created.map((d) => d.id),
    ...changes.updated.flatMap((u) => (u.contractOnly ? [] : u.after.id)),
  ];
  if (moved.length === 0) {
    await announce();
    return { jobId: null, deals };
  }
  const { jobId } = await recalculate(tx, ctx, [{ type: "deals", deal_ids: moved, buckets: left }], {
    primaryDeals: moved,
    announce,
    unsaved,
  });
  return { jobId, deals };
}

/** Items by the request they came from, in the order each request first appears. */
function byRequest<T>(items: T[], ctxOf: (item: T) => Ctx): Map<Ctx, T[]> {
  const groups = new Map<Ctx, T[]>();
  for (const item of items) {
    const who = ctxOf(item);
    const group = groups.get(who);
    if (group) group.push(item);
    else groups.set(who, [item]);
  }
  return groups;
}
