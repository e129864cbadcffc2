import { auditInsert } from "../audit/record.js";
import type { Ctx, Tx } from "../context.js";
import { emitInsert } from "../events/emit.js";
import {
  type LockedDeal,
  lockDealsOfRun,
  PAID_DEAL_AUDITS,
  PAID_DEAL_EVENTS,
  payFullyPaidDeals,
  recordPaidDeals,
} from "./settle-repository.js";

// A payout run's finalize pays lines (API.md §13); the deals whose every non-void line is then paid
// become `paid` here, as mark-paid makes them: `paid_at`, the audit row and `deal.paid`.

/**
 * Locks the deals of a payout run's lines in id order before their lines change: the lock order of every
 * deal transition.
 */
export function lockDealsForPayment(tx: Tx, runId: string): Promise<LockedDeal[]> {
  return lockDealsOfRun(tx, runId);
}

/**
 * Of deals the caller holds locked, each `approved` one whose non-void lines are all paid → `paid`
 * (`cancelled` and `disputed` deals stay). Returns the ids of the deals it paid.
 */
export async function settlePaidDeals(tx: Tx, ctx: Ctx, locked: LockedDeal[]): Promise<string[]> {
  // One UPDATE, then one statement of an audit INSERT and an event INSERT, for them all: a run pays
  // thousands of deals. PostgreSQL renders their JSON where it reads them (built in JavaScript and parsed
  // again as jsonb, it was half of a finalize's time: bench/README.md).
  const paidIds = await payFullyPaidDeals(
    tx,
    locked.map((d) => d.id),
    ctx.now,
  );
  const paid = locked.filter((d) => paidIds.has(d.id));
  const audit = await auditInsert(ctx, { action: "deal.mark_paid", resource: "deal" }, PAID_DEAL_AUDITS, paid.length);
  const event = await emitInsert(ctx, "deal.paid", PAID_DEAL_EVENTS, paid.length);
  await recordPaidDeals(tx, paid, { audit, event });
  return paid.map((d) => d.id);
}
