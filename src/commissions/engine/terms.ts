import { type Fixed, parse, plain } from "../../money/index.js";
import { type Band, bandsOf } from "./bands.js";
import type { LineContext, Multiplier } from "./explain.js";
import type { PlanInput } from "./types.js";

/** A plan's terms parsed once per bucket and quota: bands, minimum, and each deal type's multiplier on first use. */
export interface PlanTerms {
  plan: PlanInput;
  bands: Band[];
  minimum: Fixed | null;
  multipliers: Map<string, Multiplier>;
}

export function termsOf(plan: PlanInput, quota: string | null): PlanTerms {
  const minimum = plan.min_deal_amount === null ? null : parse(plan.min_deal_amount);
  return { plan, bands: bandsOf(plan, quota), minimum, multipliers: new Map() };
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
export function termsByQuota(plan: PlanInput, period: string): (quota: string | null) => QuotaTerms {
  const cache = new Map<string | null, QuotaTerms>();
  return (quota) => {
    let found = cache.get(quota);
    if (found === undefined) {
      const text = quota === null ? null : plain(parse(quota));
      found = { terms: termsOf(plan, quota), ctx: { plan, period, quota: text } };
      cache.set(quota, found);
    }
    return found;
  };
}
