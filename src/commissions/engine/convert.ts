// API.md §15 in the engine: which given rate converts a deal into a currency, converting exactly (an
// amount × num/den is kept as a scaled integer over a denominator, never rounded), and the one rounding of
// a converted line to its currency's minor unit.
import {
  type Fixed,
  formatMoney,
  fx,
  minorUnits,
  norm,
  plain,
  quotient,
  ratioText,
  roundMinor,
  times,
} from "../../money/index.js";
import { daysBetween } from "./clawback.js";
import type { DealInput, FxExplanation, FxMissing, FxRate } from "./types.js";

export const DEFAULT_FX_MAX_AGE_DAYS = 7;

/** A deal's conversion into a currency: the rate (null: same currency), or the missing pair and why. */
export type Conversion = { fx: FxRate | null } | { fx?: undefined; missing: FxMissing; reason: string };

const SAME: Conversion = { fx: null };

/**
 * The given rate from the deal's currency into `currency` that §15 allows: the latest dated on or before
 * close_date, at most `maxAgeDays` before it.
 */
export function conversionFor(
  deal: Pick<DealInput, "currency" | "close_date" | "fx_rates">,
  currency: string,
  maxAgeDays = DEFAULT_FX_MAX_AGE_DAYS,
): Conversion {
  if (deal.currency === currency) return SAME;
  let best: FxRate | null = null;
  for (const r of deal.fx_rates ?? []) {
    if (r.from !== deal.currency || r.to !== currency || r.rate_date > deal.close_date) continue;
    if (best === null || r.rate_date > best.rate_date) best = r;
  }
  if (best !== null && best.den > 0n && daysBetween(best.rate_date, deal.close_date) <= maxAgeDays) return { fx: best };
  const missing = { from: deal.currency, to: currency, close_date: deal.close_date };
  return {
    missing,
    reason: `no ${deal.currency}→${currency} rate within ${maxAgeDays} days before ${deal.close_date}`,
  };
}

const bigFixed = (n: bigint): Fixed => fx(norm(n));

/** amount × num/den × scale (den divides scale): exact, in units of 1/scale. Without a rate: amount × scale. */
export function convertScaled(amount: Fixed, rate: FxRate | null | undefined, scale: bigint): Fixed {
  if (!rate) return scale === 1n ? amount : times(amount, bigFixed(scale));
  return times(amount, bigFixed(rate.num * (scale / rate.den)));
}

export const rateText = (rate: FxRate): string => ratioText(bigFixed(rate.num), rate.den);

export function fxExplanation(rate: FxRate, creditInDeal: Fixed, credit: string): FxExplanation {
  const { from, to, rate_date, base } = rate;
  return { from, to, rate: rateText(rate), rate_date, base, credit_in_deal_currency: plain(creditInDeal), credit };
}

/** "EUR 1,007.00 at 25/23 (2026-03-09, base USD) = USD 1,094.57": the summary's rounded figures. */
export function fxSummary(rate: FxRate, creditInDeal: Fixed, scaled: Fixed, scale: bigint): string {
  const converted = formatMoney(quotient(scaled, bigFixed(scale), 2));
  return `${rate.from} ${formatMoney(creditInDeal)} at ${rateText(rate)} (${rate.rate_date}, base ${rate.base}) = ${rate.to} ${converted}`;
}

/**
 * THE rounding of a line to its currency's minor unit, half away from zero: value / scale when the
 * bucket converts (§15), the value itself when it does not (scale null).
 */
export function roundLine(value: Fixed, currency: string, scale: bigint | null): Fixed {
  if (scale === null) return roundMinor(value, currency);
  return quotient(value, bigFixed(scale), minorUnits(currency));
}
