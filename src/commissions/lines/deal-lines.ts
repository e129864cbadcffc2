import type { Tx } from "../../context.js";
import type { Db } from "../../db/schema.js";
import { type Fixed, parse, plain, plus, ZERO } from "../../money/index.js";
import type { Commission } from "../schema.js";
import * as repo from "./deal-lines-repository.js";

// The lines of one deal as the deal workflow reads and moves them (approve locks, reject voids,
// mark-paid pays): the part of commissions' lines that deals/ reaches through the feature's index.

/** Each person's non-void line total on a deal, as exact decimal text (API.md §20 b: whose share is whose). */
export type LineTotals = Record<string, string>;

function sumByUser(lines: { user_id: string; amount: string | number }[]): LineTotals {
  const sums = new Map<string, Fixed>();
  for (const line of lines) sums.set(line.user_id, plus(sums.get(line.user_id) ?? ZERO, parse(line.amount)));
  return Object.fromEntries([...sums].map(([user, sum]) => [user, plain(sum)]));
}

/** The line totals of lines already read (void ones count for no one). */
export function lineTotalsOf(lines: Commission[]): LineTotals {
  return sumByUser(lines.filter((line) => line.status !== "void"));
}

/** The line totals of these deals as stored now, by deal (a deal without lines has `{}`). */
export async function readLineTotals(db: Db, dealIds: string[]): Promise<Map<string, LineTotals>> {
  const byDeal = new Map<string, LineTotals>(dealIds.map((id) => [id, {}]));
  for (const row of await repo.lineSums(db, dealIds)) byDeal.get(row.deal_id)![row.user_id] = plain(parse(row.amount));
  return byDeal;
}

/** A deal's lines: plan lines, then SPIFF lines, then adjustments; each in split order. */
export function linesOfDeal(db: Db, dealId: string): Promise<Commission[]> {
  return repo.linesOfDeal(db, dealId);
}

/**
 * Locks a deal's pending lines as the approval workflow does: they become `approved` and no
 * recalculation touches them again; their credit still counts and their amounts use the cap first.
 */
export function lockDealLines(tx: Tx, dealId: string): Promise<number> {
  return repo.lockDealLines(tx, dealId);
}

/**
 * Voids every line of a rejected deal: they stay readable, but count in no total and no attainment.
 * Returns each person's total of what it voided: the deal's line totals before (its audit row keeps them).
 */
export async function voidDealLines(tx: Tx, dealId: string): Promise<LineTotals> {
  return sumByUser(await repo.voidDealLines(tx, dealId));
}

/** Marks a paid deal's approved (locked) lines `paid`. */
export function markDealLinesPaid(tx: Tx, dealId: string): Promise<number> {
  return repo.markDealLinesPaid(tx, dealId);
}

/** The ids of every adjustment line a deal has (void ones too: rejecting never deletes them), oldest first. */
export function adjustmentLineIds(db: Db, dealId: string): Promise<string[]> {
  return repo.adjustmentLineIds(db, dealId);
}

/** Payout runs and mark-paid take turns on approved lines: a run alone, mark-paids together (first of their locks). */
export function lockPayments(tx: Tx, as: "run" | "mark-paid"): Promise<void> {
  return repo.lockPayments(tx, as);
}

/** Locks a deal's approved lines; the draft payout run holding one of them, if any (API.md §13). */
export function lockRunOfDealLines(tx: Tx, dealId: string): Promise<string | null> {
  return repo.lockRunOfDealLines(tx, dealId);
}

/** Of these deals, those whose non-void lines are all paid: a run's finalize or a resolution pays them. */
export function fullyPaidDeals(db: Db, dealIds: string[]): Promise<Set<string>> {
  return repo.fullyPaidDeals(db, dealIds);
}
