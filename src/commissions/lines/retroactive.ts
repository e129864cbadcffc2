import { auditMany } from "../../audit/record.js";
import { actorLabel, type Ctx, type Tx } from "../../context.js";
import { emitMany } from "../../events/emit.js";
import { newId } from "../../ids.js";
import { cmp, type Fixed, formatIn, minus, moneyText, parse, plus, sign, ZERO } from "../../money/index.js";
import type { PlanInput } from "../engine/index.js";
import { currentExplanations, refreshTotals, repriceLockedLines } from "../recalc/index.js";
import { linesAdded } from "./booking-port.js";
import { findLines } from "./deal-lines-repository.js";
import { type AdjustmentExplanation, insertAdjustments } from "./repository.js";

/*
 * Retroactive corrections (API.md §12): a plan change applied with `retroactive: true` leaves every
 * locked line as it is and writes, beside each one whose amount the new terms change, an approved and
 * locked `adjustment` line for the difference — on the same deal, user and period, naming the original
 * line, both plan versions and both computations. Like every adjustment it counts in totals, never in
 * attainment or caps (§5 rule 7).
 */

export interface RetroactiveResult {
  count: number;
  sum: Fixed;
}

const CHUNK = 500;

/** Writes the corrections for `plan` (its new terms, already stored as `plan.version`) over `fromVersion`. */
export async function correctLockedHistory(
  tx: Tx,
  ctx: Ctx,
  plan: PlanInput,
  fromVersion: number,
): Promise<RetroactiveResult> {
  const changed = (await repriceLockedLines(tx, plan)).filter((r) => cmp(parse(r.line.amount), parse(r.after)) !== 0);
  if (changed.length === 0) return { count: 0, sum: ZERO };
  const author = actorLabel(ctx.actor);
  const explanationsBefore = new Map<string, unknown>();
  for (let i = 0; i < changed.length; i += CHUNK) {
    const ids = changed.slice(i, i + CHUNK).map((r) => r.line.id);
    for (const [id, explanation] of await currentExplanations(tx, ids)) explanationsBefore.set(id, explanation);
  }
  let sum = ZERO;
  // The plan's lines are in its currency (API.md §15): deltas are written with its decimals.
  const formatMoney = (a: Fixed) => formatIn(a, plan.currency);
  const cents = (a: Fixed) => moneyText(a, plan.currency);
  const lines = changed.map(({ line, after, explanation }) => {
    const delta = minus(parse(after), parse(line.amount));
    sum = plus(sum, delta);
    const signed = `${sign(delta) > 0 ? "+" : ""}${formatMoney(delta)}`;
    const reason =
      `retroactive correction: plan ${plan.id} version ${fromVersion} → ${plan.version} reprices line ${line.id} ` +
      `from ${formatMoney(parse(line.amount))} to ${formatMoney(parse(after))}`;
    const adjustment: AdjustmentExplanation = {
      summary: `Adjustment ${signed} by ${author.name}: ${reason}`,
      reason,
      author: { key_id: author.id, name: author.name },
      retroactive: {
        plan_id: plan.id,
        from_version: fromVersion,
        to_version: plan.version,
        original_line_id: line.id,
        before: { amount: cents(parse(line.amount)), explanation: explanationsBefore.get(line.id) ?? null },
        after: { amount: after, explanation },
      },
      period: line.period,
      amount: Number(cents(delta)),
    };
    return {
      id: newId("com", ctx.now.getTime()),
      deal_id: line.deal_id,
      user_id: line.user_id,
      period: line.period,
      amount: cents(delta),
      currency: plan.currency,
      adjusts_line_id: line.id,
      explanation: adjustment,
    };
  });
  for (let i = 0; i < lines.length; i += CHUNK) await insertAdjustments(tx, lines.slice(i, i + CHUNK), ctx.now);
  const deals = [...new Set(lines.map((l) => l.deal_id))];
  await refreshTotals(tx, ctx.now, deals);
  await linesAdded(tx, deals);
  for (let i = 0; i < lines.length; i += CHUNK) {
    const ids = lines.slice(i, i + CHUNK).map((l) => l.id);
    const written = await findLines(tx, ids);
    await emitMany(
      tx,
      ctx,
      written.map((object) => ({ type: "commission.calculated" as const, data: { object, previous_amount: null } })),
    );
    await auditMany(
      tx,
      ctx,
      written.map((line) => ({
        action: "commission.adjust",
        resource: "commission",
        resourceId: line.id,
        after: line,
      })),
    );
  }
  return { count: lines.length, sum };
}
