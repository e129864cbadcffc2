import { type Actor, actorLabel, type Ctx, type Tx } from "../../context.js";
import type { Db } from "../../db/schema.js";
import { emit } from "../../events/emit.js";
import { newId } from "../../ids.js";
import { amountNumber, formatIn, moneyText, parse, sign } from "../../money/index.js";
import { findPlan, periodOf, quarterOf } from "../engine/index.js";
import { loadPlanContext, refreshTotals } from "../recalc/index.js";
import type { Commission } from "../schema.js";
import { type AdjustmentExplanation, findLine, insertAdjustments, planLineOf, planPeriodOf } from "./repository.js";

/*
 * Adjustment lines, manual or a dispute's (API.md §4, §5 rules 6–8): approved and locked from the start, so no
 * recalculation reads or rewrites them; they count in deal and statement totals, never in attainment
 * or caps (recalculations load plan and SPIFF lines only).
 */

/** §4 default: the period of the user's plan in force today (rule 1, the deal's currency), else today's quarter. */
export async function defaultAdjustmentPeriod(tx: Tx, userId: string, currency: string, now: Date): Promise<string> {
  return planPeriodOn(tx, userId, currency, now.toISOString().slice(0, 10));
}

/** The period of the user's plan in force on `date` (rule 1, in `currency`) containing it, else its quarter. */
export async function planPeriodOn(db: Db, userId: string, currency: string, date: string): Promise<string> {
  const { assignments, plans } = await loadPlanContext(db, [userId]);
  const match = findPlan(userId, date, currency, assignments.get(userId) ?? [], [...plans.values()]);
  return "plan" in match ? periodOf(match.plan.period, date) : quarterOf(date);
}

/** §4 leaves a dispute's line to the period of the owner's plan line on the deal, else today's quarter. */
export async function disputeAdjustmentPeriod(tx: Tx, dealId: string, ownerId: string, now: Date): Promise<string> {
  return (await planPeriodOf(tx, dealId, ownerId)) ?? quarterOf(now.toISOString().slice(0, 10));
}

/** API.md §15 default: the currency of the user's plan line on the deal, else the deal's. */
export async function defaultAdjustmentCurrency(
  db: Db,
  deal: { id: string; currency: string },
  userId: string,
): Promise<string> {
  return (await planLineOf(db, deal.id, userId))?.currency ?? deal.currency;
}

/** The resolution a dispute's adjustment line came from; totals are exact decimal strings. */
export interface DisputeSource {
  id: string;
  outcome: string;
  previous_total: string;
  accepted_total: string;
}

export interface NewAdjustment {
  deal_id: string;
  user_id: string;
  /** Signed exact decimal, at most `currency`'s places, not 0. */
  amount: string;
  /** The line's own currency (API.md §15). */
  currency: string;
  reason: string;
  period: string;
  /** Set when a dispute's resolution writes the line (its reason is then `disputeReason`). */
  dispute?: DisputeSource;
}

/** A dispute line's reason: which dispute, how it was resolved, the totals, and the admin's note. */
export function disputeReason(d: DisputeSource, currency: string, note: string | null): string {
  const totals = `total ${formatIn(parse(d.previous_total), currency)} → ${formatIn(parse(d.accepted_total), currency)}`;
  return `dispute ${d.id} resolved ${d.outcome}, ${totals}${note ? `; note: ${note}` : ""}`;
}

/** §5 rule 8 for every adjustment line: its reason, its author (key id and name, or owner-cli), its source. */
export function adjustmentExplanation(actor: Actor, input: NewAdjustment): AdjustmentExplanation {
  const author = actorLabel(actor);
  const amount = parse(input.amount);
  const signed = `${sign(amount) >= 0 ? "+" : ""}${formatIn(amount, input.currency)}`;
  return {
    summary: `Adjustment ${signed} by ${author.name}: ${input.reason}`,
    reason: input.reason,
    author: { key_id: author.id, name: author.name },
    ...(input.dispute && { dispute: { ...input.dispute } }),
    period: input.period,
    amount: amountNumber(amount),
  };
}

/**
 * Writes the line (its explanation names the reason and the author), refreshes the deal's
 * total_commission and raises `commission.calculated` for the new line (previous_amount null).
 */
export async function addAdjustment(tx: Tx, ctx: Ctx, input: NewAdjustment): Promise<Commission> {
  const id = newId("com", ctx.now.getTime());
  const explanation = adjustmentExplanation(ctx.actor, input);
  const { deal_id, user_id, period, currency } = input;
  const amount = moneyText(parse(input.amount), currency);
  await insertAdjustments(tx, [{ id, deal_id, user_id, period, amount, currency, explanation }], ctx.now);
  await refreshTotals(tx, ctx.now, [input.deal_id]);
  const written = (await findLine(tx, id))!;
  await emit(tx, ctx, "commission.calculated", { object: written, previous_amount: null });
  return written;
}
