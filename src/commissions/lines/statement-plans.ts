import type { Db } from "../../db/schema.js";
import { centsNumber, type Fixed, lt, minus, parse, roundCentsUp, sign, times } from "../../money/index.js";

/** The terms of one plan version a statement shows: what the rep home draws its gauge and next tier from. */
export interface PlanVersionTerms {
  name: string;
  currency: string;
  period: "month" | "quarter" | "year";
  base_rate: string | null;
  tiers: { from_attainment: string; rate: string }[];
}

/** The named versions of plans, keyed `plan_id@version`. */
export async function planVersionTerms(
  db: Db,
  versions: { plan_id: string; version: number }[],
): Promise<Map<string, PlanVersionTerms>> {
  const out = new Map<string, PlanVersionTerms>();
  if (versions.length === 0) return out;
  const rows = await db
    .selectFrom("comp_plan_versions as v")
    .innerJoin("comp_plans as p", "p.id", "v.plan_id")
    .select(["v.plan_id", "v.version", "p.name", "v.currency", "v.period", "v.base_rate", "v.tiers"])
    .where("v.plan_id", "in", [...new Set(versions.map((v) => v.plan_id))])
    .execute();
  const wanted = new Set(versions.map((v) => `${v.plan_id}@${v.version}`));
  for (const r of rows) {
    const key = `${r.plan_id}@${r.version}`;
    if (!wanted.has(key)) continue;
    const tiers = typeof r.tiers === "string" ? JSON.parse(r.tiers) : r.tiers;
    out.set(key, { name: r.name, currency: r.currency, period: r.period, base_rate: r.base_rate, tiers: tiers ?? [] });
  }
  return out;
}

export interface TierPosition {
  current_rate: number | null;
  next_tier: { from_attainment: number; rate: number; arr_to_reach: number } | null;
}

/**
 * Where `credit` stands in the tiers: a band applies from the credit where its start is reached
 * (exactly at 100 % the 100 % band applies). The next tier's ARR is rounded up to the cent, so closing
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
    const toReach = roundCentsUp(minus(start, credit));
    return {
      current_rate: current === null ? null : Number(current),
      next_tier: {
        from_attainment: Number(tier.from_attainment),
        rate: Number(tier.rate),
        arr_to_reach: centsNumber(toReach),
      },
    };
  }
  return { current_rate: current === null ? null : Number(current), next_tier: null };
}
