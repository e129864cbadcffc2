import { actorLabel, type Ctx, type Tx } from "../context.js";
import { emit } from "../events/emit.js";
import { newId } from "../ids.js";
import { Dec, findPlan, formatMoney, periodOf, quarterOf } from "./calculate.js";
import { loadPlanContext } from "./recalc/load.js";
import { refreshTotals } from "./recalculate.js";
import { findLine, insertAdjustment } from "./repository.js";
import type { Commission } from "./schema.js";

/*
 * Manual adjustment lines (API.md §4, §5 rules 6–8): approved and locked from the start, so no
 * recalculation reads or rewrites them; they count in deal and statement totals, never in attainment
 * or caps (recalculations load plan and SPIFF lines only).
 */

/** §4 default: the period of the user's plan in force today (rule 1, the deal's currency), else today's quarter. */
export async function defaultAdjustmentPeriod(tx: Tx, userId: string, currency: string, now: Date): Promise<string> {
  const today = now.toISOString().slice(0, 10);
  const { assignments, plans } = await loadPlanContext(tx, [userId]);
  const match = findPlan(userId, today, currency, assignments.get(userId) ?? [], [...plans.values()]);
  return "plan" in match ? periodOf(match.plan.period, today) : quarterOf(today);
}

export interface NewAdjustment {
  deal_id: string;
  user_id: string;
  /** Signed exact decimal, at most 2 places, not 0. */
  amount: string;
  reason: string;
  period: string;
}

/**
 * Writes the line (its explanation names the reason and the author), refreshes the deal's
 * total_commission and raises `commission.calculated` for the new line (previous_amount null).
 */
export async function addAdjustment(tx: Tx, ctx: Ctx, input: NewAdjustment): Promise<Commission> {
  const author = actorLabel(ctx.actor);
  const amount = new Dec(input.amount);
  const signed = `${amount.isPositive() ? "+" : ""}${formatMoney(amount)}`;
  const id = newId("com", ctx.now.getTime());
  const explanation = {
    summary: `Adjustment ${signed} by ${author.name}: ${input.reason}`,
    reason: input.reason,
    author: { key_id: author.id, name: author.name },
    period: input.period,
    amount: Number(amount.toFixed(2)),
  };
  const { deal_id, user_id, period } = input;
  await insertAdjustment(tx, { id, deal_id, user_id, period, amount: amount.toFixed(2), explanation }, ctx.now);
  await refreshTotals(tx, ctx.now, [input.deal_id]);
  const written = (await findLine(tx, id))!;
  await emit(tx, ctx, "commission.calculated", { object: written, previous_amount: null });
  return written;
}
