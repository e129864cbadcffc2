import type { AssignmentInput, DealInput, FxRate, PlanInput } from "../../src/commissions/engine/index.js";

// Plans, deals and rates for the engine's conversion tests (API.md §15).

export const rate = (
  from: string,
  to: string,
  num: bigint,
  den: bigint,
  rate_date = "2026-03-09",
  base = "USD",
): FxRate => ({
  from,
  to,
  num,
  den,
  rate_date,
  base,
});
// base USD {"EUR": "0.92", "GBP": "0.79", "JPY": "151.2345"}
export const EUR_USD = rate("EUR", "USD", 25n, 23n);
export const GBP_USD = rate("GBP", "USD", 100n, 79n);
export const GBP_EUR = rate("GBP", "EUR", 92n, 79n);
export const USD_JPY = rate("USD", "JPY", 302469n, 2000n);

export function plan(over: Partial<PlanInput> = {}): PlanInput {
  return {
    id: "pln_usd",
    version: 1,
    status: "active",
    currency: "USD",
    period: "quarter",
    quota: null,
    base_rate: "0.15",
    tiers: null,
    deal_type_multipliers: {},
    min_deal_amount: null,
    cap_per_period: null,
    effective_from: "2026-01-01",
    effective_to: null,
    ...over,
  };
}

let created = 0;
export function deal(currency: string, arr: string, over: Partial<DealInput> = {}): DealInput {
  created++;
  return {
    id: `deal_${String(created).padStart(3, "0")}`,
    arr_amount: arr,
    currency,
    deal_type: "new_business",
    close_date: "2026-03-10",
    created_at: `2026-03-10T10:00:00.${String(created).padStart(3, "0")}Z`,
    splits: [{ user_id: "usr_a", percent: "100" }],
    ...over,
  };
}

export const assignment = (plan_id: string, user_id = "usr_a"): AssignmentInput => ({
  id: `pa_${user_id}`,
  plan_id,
  user_id,
  effective_from: "2026-01-01",
  effective_to: null,
  quota_override: null,
});
