import { amountNumber, type Dec, formatMoney, formatPercent, plain, roundCents } from "./decimal.js";
import type { BandExplanation, CapExplanation, DealInput, PlanInput, PlanLineExplanation } from "./types.js";

/** One plan line before the cap: slices, multiplier, unrounded, and the rounded amount (0 below the minimum). */
export interface PricedLine {
  deal: DealInput;
  credit: Dec;
  prior: Dec;
  slices: BandExplanation[];
  multiplier: Dec;
  unrounded: Dec;
  rounded: Dec;
  /** Set only when the deal's arr_amount is below the plan's min_deal_amount. */
  minDeal: Dec | null;
}

export interface CappedLine {
  amount: Dec;
  cap: CapExplanation | null;
}

interface LineContext {
  plan: PlanInput;
  quota: string | null;
  period: string;
}

function computationText(line: PricedLine): string {
  const bands = line.slices.map((s) => `${formatMoney(s.amount)} × ${formatPercent(s.rate)}`).join(" + ");
  const base = bands === "" ? `${formatMoney(line.credit)} credit` : bands;
  const multiplier = line.multiplier.eq(1) ? "" : ` × ${plain(line.multiplier)} (${line.deal.deal_type})`;
  return `${base}${multiplier}`;
}

/** "10,000.00 × 10% + 20,000.00 × 15% = 4,000.00", plus the minimum or cap when they changed the line. */
export function planSummary(line: PricedLine, capped: CappedLine): string {
  const text = computationText(line);
  const amount = formatMoney(capped.amount);
  if (line.minDeal !== null) {
    const arr = formatMoney(line.deal.arr_amount);
    const would = formatMoney(roundCents(line.unrounded));
    const minimum = formatMoney(line.minDeal);
    return `deal ARR ${arr} is below the minimum deal amount ${minimum}, so ${amount} instead of ${text} = ${would} (its credit still counts toward attainment)`;
  }
  if (capped.cap?.applied) {
    const { limit, before } = capped.cap;
    const cut = `capped at ${amount} (cap ${formatMoney(limit)}, ${formatMoney(before)} used before)`;
    return `${text} = ${formatMoney(line.rounded)} ${cut} = ${amount}`;
  }
  return `${text} = ${amount}`;
}

/** Rule 8: enough to redo the line by hand — Σ band commissions × multiplier → round → cap. */
export function planExplanation(ctx: LineContext, line: PricedLine, capped: CappedLine): PlanLineExplanation {
  return {
    summary: planSummary(line, capped),
    plan_id: ctx.plan.id,
    plan_version: ctx.plan.version,
    period: ctx.period,
    quota: ctx.quota === null ? null : plain(ctx.quota),
    credit: plain(line.credit),
    prior_attainment: plain(line.prior),
    bands: line.slices,
    multiplier: plain(line.multiplier),
    cap: capped.cap,
    unrounded: plain(line.unrounded),
    ...(line.minDeal === null ? {} : { min_deal_amount: plain(line.minDeal) }),
    amount: amountNumber(capped.amount),
  };
}
