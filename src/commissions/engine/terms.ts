import { type Fixed, fx, norm, parse, plain, ratioText, times } from "../../money/index.js";
import { type Band, bandsOf } from "./bands.js";
import type { LineContext, Multiplier } from "./explain.js";
import type { PlanInput } from "./types.js";

/** A plan's terms parsed once per bucket and quota: bands, minimum, and each deal type's multiplier on first use. */
export interface PlanTerms {
  plan: PlanInput;
  bands: Band[];
  minimum: Fixed | null;
  multipliers: Map<string, Multiplier>;
  /**
   * §15: null, or the scale S of a bucket holding converted credits: attainment values (credits, band
   * bounds, the minimum) are then in units of 1/S (exact integers × S), and lines round by `roundLine`.
   */
  scale: bigint | null;
}

export function termsOf(plan: PlanInput, quota: string | null, scale: bigint | null = null): PlanTerms {
  const minimum = plan.min_deal_amount === null ? null : parse(plan.min_deal_amount);
  if (scale === null) return { plan, bands: bandsOf(plan, quota), minimum, multipliers: new Map(), scale };
  const s = fx(norm(scale));
  const bands = bandsOf(plan, quota === null ? null : plain(times(parse(quota), s))).map((b) => {
    const to = b.to === null ? null : ratioText(b.to, scale);
    return { ...b, text: { ...b.text, from: ratioText(b.from, scale), to } };
  });
  return { plan, bands, minimum: minimum && times(minimum, s), multipliers: new Map(), scale };
}

export function multiplierFor(terms: PlanTerms, dealType: string): Multiplier {
  let multiplier = terms.multipliers.get(dealType);
  if (multiplier === undefined) {
    // Object.hasOwn: a deal type named "constructor" must not reach the prototype.
    const own = terms.plan.deal_type_multipliers;
    const value = parse((Object.hasOwn(own, dealType) ? own[dealType] : undefined) ?? 1);
    multiplier = { value, text: plain(value) };
    terms.multipliers.set(dealType, multiplier);
  }
  return multiplier;
}

/** A bucket's terms for one quota, with what its lines share. */
export interface QuotaTerms {
  terms: PlanTerms;
  ctx: LineContext;
}

/** The terms for each quota a bucket's entries name (usually one), each parsed once, with its lines' context. */
export function termsByQuota(
  plan: PlanInput,
  period: string,
  scale: bigint | null = null,
): (quota: string | null) => QuotaTerms {
  const cache = new Map<string | null, QuotaTerms>();
  return (quota) => {
    let found = cache.get(quota);
    if (found === undefined) {
      const text = quota === null ? null : plain(parse(quota));
      found = { terms: termsOf(plan, quota, scale), ctx: { plan, period, quota: text } };
      cache.set(quota, found);
    }
    return found;
  };
}
