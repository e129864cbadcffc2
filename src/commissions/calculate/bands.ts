import { Dec, plain, ZERO } from "./decimal.js";
import type { BandExplanation, PlanInput } from "./types.js";

/** One graduated band in money: [from, to), `to` null for the open-ended last band. */
export interface Band {
  from: Dec;
  to: Dec | null;
  rate: Dec;
}

/** Rule 4: band i is [from_i·q, from_{i+1}·q); without tiers, base_rate on everything. */
export function bandsOf(plan: PlanInput, quota: string | null): Band[] {
  const tiers = plan.tiers ?? [];
  if (tiers.length === 0) {
    if (plan.base_rate === null) throw new RangeError(`plan ${plan.id} has neither tiers nor base_rate`);
    return [{ from: ZERO, to: null, rate: new Dec(plan.base_rate) }];
  }
  if (quota === null || !new Dec(quota).gt(0)) throw new RangeError(`plan ${plan.id} has tiers but no quota above 0`);
  const q = new Dec(quota);
  return tiers.map((tier, i) => {
    const next = tiers[i + 1];
    return {
      from: q.times(tier.from_attainment),
      to: next ? q.times(next.from_attainment) : null,
      rate: new Dec(tier.rate),
    };
  });
}

/** The slices of [prior, prior + credit) inside each band; bands with an empty slice are left out. */
export function sliceBands(bands: Band[], prior: Dec, credit: Dec): BandExplanation[] {
  const end = prior.plus(credit);
  const slices: BandExplanation[] = [];
  for (const band of bands) {
    const top = band.to === null ? end : Dec.min(end, band.to);
    const slice = top.minus(Dec.max(prior, band.from));
    if (!slice.gt(0)) continue;
    slices.push({
      from: plain(band.from),
      to: band.to === null ? null : plain(band.to),
      rate: plain(band.rate),
      amount: plain(slice),
      commission: plain(slice.times(band.rate)),
    });
  }
  return slices;
}

/** Sum of the slices' unrounded commissions. */
export function bandsTotal(slices: BandExplanation[]): Dec {
  return slices.reduce((sum, s) => sum.plus(s.commission), ZERO);
}
