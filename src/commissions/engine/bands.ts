import {
  cmp,
  type Fixed,
  formatPercent,
  max,
  min,
  minus,
  parse,
  plain,
  plus,
  sign,
  times,
  ZERO,
} from "../../money/index.js";
import type { BandExplanation, PlanInput } from "./types.js";

/** One graduated band in money: [from, to), `to` null for the open-ended last band; texts made once. */
export interface Band {
  from: Fixed;
  to: Fixed | null;
  rate: Fixed;
  text: { from: string; to: string | null; rate: string; percent: string };
}

/** One band's slice of a line's credit and its (unrounded) commission. */
export interface Slice {
  band: Band;
  amount: Fixed;
  commission: Fixed;
}

function band(from: Fixed, to: Fixed | null, rate: Fixed): Band {
  const text = {
    from: plain(from),
    to: to === null ? null : plain(to),
    rate: plain(rate),
    percent: formatPercent(rate),
  };
  return { from, to, rate, text };
}

/** Rule 4: band i is [from_i·q, from_{i+1}·q); without tiers, base_rate on everything. */
export function bandsOf(plan: PlanInput, quota: string | null): Band[] {
  const tiers = plan.tiers ?? [];
  if (tiers.length === 0) {
    if (plan.base_rate === null) throw new RangeError(`plan ${plan.id} has neither tiers nor base_rate`);
    return [band(ZERO, null, parse(plan.base_rate))];
  }
  const q = quota === null ? null : parse(quota);
  if (q === null || sign(q) <= 0) throw new RangeError(`plan ${plan.id} has tiers but no quota above 0`);
  return tiers.map((tier, i) => {
    const next = tiers[i + 1];
    return band(
      times(q, parse(tier.from_attainment)),
      next ? times(q, parse(next.from_attainment)) : null,
      parse(tier.rate),
    );
  });
}

/** The slices of [prior, prior + credit) inside each band; bands with an empty slice are left out. */
export function sliceBands(bands: Band[], prior: Fixed, credit: Fixed): Slice[] {
  const end = plus(prior, credit);
  const slices: Slice[] = [];
  for (const b of bands) {
    const top = b.to === null ? end : min(end, b.to);
    const amount = minus(top, max(prior, b.from));
    if (sign(amount) <= 0) continue;
    slices.push({ band: b, amount, commission: times(amount, b.rate) });
  }
  return slices;
}

/** Sum of the slices' unrounded commissions. */
export function bandsTotal(slices: Slice[]): Fixed {
  let sum = ZERO;
  for (const s of slices) sum = plus(sum, s.commission);
  return sum;
}

/**
 * The slices as the explanation lists them, every number an exact decimal string. A slice holding the
 * whole credit (the usual case) reuses the credit's text rather than writing it again.
 */
export function bandTexts(
  slices: Slice[],
  credit: Fixed,
  creditText: string,
  text: (f: Fixed) => string = plain,
): BandExplanation[] {
  const texts: BandExplanation[] = [];
  for (const { band: b, amount, commission } of slices) {
    texts.push({
      from: b.text.from,
      to: b.text.to,
      rate: b.text.rate,
      amount: cmp(amount, credit) === 0 ? creditText : text(amount),
      commission: text(commission),
    });
  }
  return texts;
}
