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
    await auditMany(tx, ctx, [
      ...created.map((after) => ({
        action: "deal.create",
        resource: "deal",
        resourceId: after!.id,
        after,
        lineTotals: { after: totalsAfter.get(after!.id)! },
      })),
      ...updated.map(({ before, after }) => ({
        action: "deal.update",
        resource: "deal",
        resourceId: before.id,
        before,
        after,
        lineTotals: { before: totalsBefore.get(before.id)!, after: totalsAfter.get(before.id)! },
      })),
    ]);
    await emitMany(tx, ctx, [
      ...created.map((object) => ({ type: "deal.created" as const, data: { object } })),
      ...updated.map(({ after }) => ({ type: "deal.updated" as const, data: { object: after } })),
    ]);
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
