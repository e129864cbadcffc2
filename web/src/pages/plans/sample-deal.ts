import type { PreviewBody } from "../../data/commissions/mutations";
import type { CompPlan } from "../../data/comp-plans/queries";
import type { DealType } from "../../data/deals/queries";
import { minorUnitsProblem, plainDecimal, tooManyDecimals } from "../../lib/money";

// A sample deal to try a plan on (POST /commissions/preview with `plan_id`: a draft too), nothing saved.

export type SampleDeal = {
  arr_amount: number | string;
  deal_type: DealType;
  close_date: string;
  owner_id: string | null;
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const MONEY_MAX = 999_999_999_999.99;

/** A first sample: closing today if the plan is in force today, else on the plan's nearest day. */
export function sampleDeal(plan: CompPlan, ownerId: string, today: string): SampleDeal {
  let close = today < plan.effective_from ? plan.effective_from : today;
  if (plan.effective_to !== null && close > plan.effective_to) close = plan.effective_to;
  return { arr_amount: "", deal_type: "new_business", close_date: close, owner_id: ownerId };
}

/** The preview's body: the deal in the plan's currency, priced under the plan for its owner. */
export function sampleBody(plan: CompPlan, deal: SampleDeal): PreviewBody {
  return {
    opportunity_name: "Sample deal",
    arr_amount: deal.arr_amount === "" ? Number.NaN : Number(deal.arr_amount),
    currency: plan.currency,
    deal_type: deal.deal_type,
    close_date: deal.close_date,
    owner_id: deal.owner_id ?? "",
    plan_id: plan.id,
  };
}

/** What the sample lacks, in words, by the parameter the API would name. */
export function sampleProblems(deal: SampleDeal, currency: string): Record<string, string> {
  const problems: Record<string, string> = {};
  const amount = plainDecimal(String(deal.arr_amount));
  if (amount === null) problems.arr_amount = "Give the deal's ARR amount.";
  else if (amount.startsWith("-")) problems.arr_amount = "Give an amount of zero or more.";
  else if (Number(amount) > MONEY_MAX) problems.arr_amount = "Give an amount below 1,000,000,000,000.";
  else if (tooManyDecimals(amount, currency)) problems.arr_amount = minorUnitsProblem("the amount", currency);
  if (!ISO_DATE.test(deal.close_date)) problems.close_date = "Pick the day the deal closes.";
  if (!deal.owner_id) problems.owner_id = "Pick whose deal it is.";
  return problems;
}
