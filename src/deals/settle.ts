import { fullyPaidDeals, readLineTotals } from "../commissions/index.js";
import type { Ctx, Tx } from "../context.js";
import * as repo from "./repository.js";
import { announceMany } from "./transition.js";
import { setStatusOfMany } from "./transitions-repository.js";

// A payout run's finalize pays lines (API.md §13); the deals whose every non-void line is then paid
// become `paid` here, as mark-paid makes them: `paid_at`, the audit row and `deal.paid`.

/** Locks the deals in id order before their lines change: the lock order of every deal transition. */
export function lockDealsForPayment(tx: Tx, ids: string[]): Promise<repo.DealRecord[]> {
  return repo.lockDeals(tx, [...new Set(ids)].sort());
}

/**
 * Of deals the caller holds locked, each `approved` one whose non-void lines are all paid → `paid`
 * (`cancelled` and `disputed` deals stay). Returns the ids of the deals it paid.
 */
export async function settlePaidDeals(tx: Tx, ctx: Ctx, locked: repo.DealRecord[]): Promise<string[]> {
  const approved = locked.filter((d) => d.status === "approved");
  const paid = await fullyPaidDeals(
    tx,
    approved.map((d) => d.id),
  );
  const settled = approved.filter((d) => paid.has(d.id));
  const totals = await readLineTotals(
    tx,
    settled.map((d) => d.id),
  );
  // One UPDATE, one audit INSERT and one event INSERT for them all: a run pays thousands of deals.
  const after = await setStatusOfMany(tx, settled, { status: "paid", paid_at: ctx.now, updated_at: ctx.now });
  await announceMany(
    tx,
    ctx,
    "deal.mark_paid",
    "deal.paid",
    settled.map((before, i) => {
      const lineTotals = totals.get(before.id)!;
      return { before, now: after[i]!, lineTotals: { before: lineTotals, after: lineTotals } };
    }),
  );
  return settled.map((d) => d.id);
}
