import { amountNumber, type Fixed, lt, minorUnits, minus, parse, roundUpTo, sign, times } from "../../money/index.js";
import type { PlanVersionTerms } from "./statement-plans-repository.js";

export interface TierPosition {
  current_rate: number | null;
  next_tier: { from_attainment: number; rate: number; arr_to_reach: number } | null;
}

/**
 * Where `credit` stands in the tiers: a band applies from the credit where its start is reached
 * (exactly at 100 % the 100 % band applies). The next tier's ARR is rounded up to the plan currency's minor unit, so closing
 * that much reaches it; null in the top band, without tiers, or without a quota above 0.
 */
export function tierPosition(terms: PlanVersionTerms, quota: string | null, credit: Fixed): TierPosition {
  if (terms.tiers.length === 0) {
    return { current_rate: terms.base_rate === null ? null : Number(terms.base_rate), next_tier: null };
  }
  const q = quota === null ? null : parse(quota);
  if (q === null || sign(q) <= 0) return { current_rate: null, next_tier: null };
  let current: string | null = null;
  for (const tier of terms.tiers) {
    const start = times(q, parse(tier.from_attainment));
    if (!lt(credit, start)) {
      current = tier.rate;
      continue;
    }
    const toReach = roundUpTo(minus(start, credit), minorUnits(terms.currency));
    return {
      current_rate: current === null ? null : Number(current),
      next_tier: {
        from_attainment: Number(tier.from_attainment),
        rate: Number(tier.rate),
        arr_to_reach: amountNumber(toReach),
      },
    };
  }
  return { current_rate: current === null ? null : Number(current), next_tier: null };
}
