import {
  amountNumber,
  eq,
  type Fixed,
  formatMoney,
  fx,
  norm,
  ONE,
  parse,
  plain,
  quotient,
  ratioText,
} from "../../money/index.js";
import { bandTexts, type Slice } from "./bands.js";
import { convertScaled, fxExplanation, fxSummary, roundLine } from "./convert.js";
import type { DealInput, FxRate, PlanInput, PlanLineExplanation } from "./types.js";

/** A deal type's multiplier and its plain text, made once per bucket. */
export interface Multiplier {
  value: Fixed;
  text: string;
}

/** One plan line before the cap: slices, multiplier, unrounded, and the rounded amount (0 below the minimum). */
export interface PricedLine {
  deal: DealInput;
  credit: Fixed;
  prior: Fixed;
  slices: Slice[];
  multiplier: Multiplier;
  unrounded: Fixed;
  rounded: Fixed;
  /** Set only when the deal's arr_amount is below the plan's min_deal_amount. */
  minDeal: Fixed | null;
  /** The decimals of the line's currency (the plan's): what it is rounded to and shown with. */
  places: number;
  /** terms.ts `scale`: null, or credit, prior, slices, unrounded and minDeal are in units of 1/scale. */
  scale: bigint | null;
  /** A converted credit: its rate and the credit in the deal's currency. */
  fx: { rate: FxRate; credit: Fixed } | null;
}

/** How a line writes an attainment value: exact text, and the summary's figure (rounded when scaled). */
interface Notation {
  text: (f: Fixed) => string;
  money: (f: Fixed) => string;
}

function notationOf(scale: bigint | null, places: number): Notation {
  if (scale === null) return { text: plain, money: (f) => formatMoney(f, places) };
  const s = fx(norm(scale));
  return { text: (f) => ratioText(f, scale), money: (f) => formatMoney(quotient(f, s, places), places) };
}

/** A bucket's cap and its plain text, made once per bucket. */
export interface CapLimit {
  value: Fixed;
  text: string;
}

/** A line after the cap: its amount, and what the cap's explanation needs (`used`: by earlier lines). */
export interface CappedLine {
  amount: Fixed;
  limit: CapLimit | null;
  used: Fixed;
  applied: boolean;
}

/** What a bucket's lines share; `quota` already in plain notation. */
export interface LineContext {
  plan: PlanInput;
  quota: string | null;
  period: string;
}

function computationText(line: PricedLine, n: Notation): string {
  let bands = "";
  for (let i = 0; i < line.slices.length; i++) {
    const s = line.slices[i]!;
    bands += `${i > 0 ? " + " : ""}${n.money(s.amount)} × ${s.band.text.percent}`;
  }
  const base = bands === "" ? `${n.money(line.credit)} credit` : bands;
  const multiplier = eq(line.multiplier.value, ONE) ? "" : ` × ${line.multiplier.text} (${line.deal.deal_type})`;
  return `${base}${multiplier}`;
}

/** "10,000.00 × 10% + 20,000.00 × 15% = 4,000.00", plus the minimum or cap when they changed the line. */
export function planSummary(line: PricedLine, capped: CappedLine): string {
  const text = computationSummary(line, capped);
  const { fx: converted, scale } = line;
  return converted === null || scale === null
    ? text
    : `${fxSummary(converted.rate, converted.credit, line.credit, scale)} credit; ${text}`;
}

function computationSummary(line: PricedLine, capped: CappedLine): string {
  const n = notationOf(line.scale, line.places);
  const text = computationText(line, n);
  const money = (a: Fixed) => formatMoney(a, line.places);
  const amount = money(capped.amount);
  if (line.minDeal !== null) {
    const scale = line.scale;
    const arr = n.money(scale === null ? parse(line.deal.arr_amount) : convert(line, scale));
    const would = money(roundLine(line.unrounded, currencyOf(line), scale));
    const minimum = n.money(line.minDeal);
    return `deal ARR ${arr} is below the minimum deal amount ${minimum}, so ${amount} instead of ${text} = ${would} (its credit still counts toward attainment)`;
  }
  if (capped.applied && capped.limit !== null) {
    const cut = `capped at ${amount} (cap ${money(parse(capped.limit.text))}, ${money(capped.used)} used before)`;
    return `${text} = ${money(line.rounded)} ${cut} = ${amount}`;
  }
  return `${text} = ${amount}`;
}

const convert = (line: PricedLine, scale: bigint): Fixed =>
  convertScaled(parse(line.deal.arr_amount), line.fx?.rate, scale);

// A scaled line's currency is its plan's: the rate's target (a same-currency entry of a converted bucket
// has none, and a converted bucket's lines always have a rate beside them, so the deal's is the plan's).
const currencyOf = (line: PricedLine): string => line.fx?.rate.to ?? line.deal.currency;

/** Rule 8: enough to redo the line by hand — Σ band commissions × multiplier → round → cap. */
export function planExplanation(ctx: LineContext, line: PricedLine, capped: CappedLine): PlanLineExplanation {
  const summary = planSummary(line, capped);
  const { plan, period, quota } = ctx;
  const { text } = notationOf(line.scale, line.places);
  const credit = text(line.credit);
  const prior = text(line.prior);
  const bands = bandTexts(line.slices, line.credit, credit, text);
  // One band and no multiplier: unrounded is that band's commission, already written.
  const single = line.slices.length === 1 && eq(line.unrounded, line.slices[0]!.commission);
  const unrounded = single ? bands[0]!.commission : text(line.unrounded);
  const amount = amountNumber(capped.amount);
  // One literal, one shape for every line (a spread measured ~25 % slower in bench/engine.mjs): with no
  // minimum, min_deal_amount is undefined, which JSON leaves out; where present it precedes amount.
  return {
    summary,
    plan_id: plan.id,
    plan_version: plan.version,
    period,
    quota,
    credit,
    prior_attainment: prior,
    bands,
    multiplier: line.multiplier.text,
    cap:
      capped.limit === null ? null : { limit: capped.limit.text, before: plain(capped.used), applied: capped.applied },
    unrounded,
    min_deal_amount: line.minDeal === null ? undefined : text(line.minDeal),
    fx: line.fx === null ? undefined : fxExplanation(line.fx.rate, line.fx.credit, credit),
    amount,
  };
}
