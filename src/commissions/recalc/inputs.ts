import type { Selectable } from "kysely";
import type { DealsTable } from "../../db/schema.js";
import { fraction, fractionOf } from "../../exchange-rates/index.js";
import { creditsOf, type FxExplanation, type FxRate, type PlanInput, type SpiffInput } from "../engine/index.js";
import type { CreditRow, EngineDeal } from "./types.js";

// Stored rows as the engine takes them: deals, credits, plans and SPIFFs (pure mappers; the reads that
// fetch the rows are the recalc repositories).

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

/** The deal columns the engine reads. */
export type DealCols = Pick<
  Selectable<DealsTable>,
  "id" | "arr_amount" | "currency" | "deal_type" | "close_date" | "created_at" | "status"
>;

export function toEngineDeal(row: DealCols): EngineDeal {
  return {
    id: row.id,
    arr_amount: row.arr_amount,
    currency: row.currency,
    deal_type: row.deal_type,
    close_date: row.close_date,
    created_at: iso(row.created_at),
    splits: [],
    status: row.status,
  };
}

export function creditOf(deal: EngineDeal, user_id: string, percent: string): string {
  return creditsOf({ arr_amount: deal.arr_amount, splits: [{ user_id, percent }] })[0]!.credit;
}

/**
 * The credits of pending deals this transaction has not stored yet, as `loadCredits` would return them
 * once stored (the planner sees them as stored; see `recalculate`'s `unsaved`).
 */
export function unsavedCredits(deals: (DealCols & { splits: { user_id: string; percent: string }[] })[]): CreditRow[] {
  return deals.flatMap((row) => {
    const deal = toEngineDeal(row);
    return row.splits.map((s) => ({
      deal,
      user_id: s.user_id,
      percent: s.percent,
      credit: creditOf(deal, s.user_id, s.percent),
      no_plan_reason: null,
    }));
  });
}

type PlanRow = Omit<PlanInput, "tiers"> & { tiers: PlanInput["tiers"] };

const LEVELS_BY_DEPTH = (a: { depth: number }, b: { depth: number }) => a.depth - b.depth;

export function toPlanInput(row: PlanRow): PlanInput {
  return {
    id: row.id,
    version: row.version,
    status: row.status,
    currency: row.currency,
    period: row.period,
    quota: row.quota,
    base_rate: row.base_rate,
    tiers: row.tiers && row.tiers.length > 0 ? row.tiers : null,
    deal_type_multipliers: row.deal_type_multipliers,
    min_deal_amount: row.min_deal_amount,
    cap_per_period: row.cap_per_period,
    kind: row.kind ?? "standard",
    override_levels: row.override_levels ? [...row.override_levels].sort(LEVELS_BY_DEPTH) : null,
    effective_from: row.effective_from,
    effective_to: row.effective_to,
    ...(row.fx_max_age_days !== undefined && { fx_max_age_days: row.fx_max_age_days }),
  };
}

/** A `spiffs` row (any extra columns dropped) as the engine takes it. */
export function toSpiffInput(r: SpiffInput): SpiffInput {
  return {
    id: r.id,
    name: r.name,
    currency: r.currency,
    starts_on: r.starts_on,
    ends_on: r.ends_on,
    active: r.active,
    criteria: r.criteria,
    payout: r.payout,
    ...(r.fx_max_age_days !== undefined && { fx_max_age_days: r.fx_max_age_days }),
  };
}

/** The rate a stored line's `fx` block states ("25/23" or "0.92"), exact; null when the line did not convert. */
export function rateOfExplanation(fx: FxExplanation | null | undefined): FxRate | null {
  if (!fx) return null;
  const [num, den] = fx.rate.split("/");
  const rate = den === undefined ? fractionOf(num!) : fraction(BigInt(num!), BigInt(den));
  return { from: fx.from, to: fx.to, num: rate.num, den: rate.den, rate_date: fx.rate_date, base: fx.base };
}
