import type { AdjustmentBody } from "../../data/commissions/mutations";
import { minorUnitsProblem, tooManyDecimals } from "../../lib/money";

// The deal page's adjustment form (issue #30): the body it sends, and what is wrong with it in words, by
// the parameter the API would name.

export interface AdjustmentValues {
  user_id: string | null;
  amount: number | string;
  reason: string;
  period: string;
}

// The API's PeriodLabel: no year 0000.
/** The body the form sends for its values on this deal (an empty amount is NaN: the API refuses it). */
export function adjustmentBody(dealId: string, v: AdjustmentValues): AdjustmentBody {
  return {
    deal_id: dealId,
    user_id: v.user_id ?? "",
    amount: v.amount === "" ? Number.NaN : Number(v.amount),
    reason: v.reason.trim(),
    ...(v.period.trim() ? { period: v.period.trim() } : {}),
  };
}

const PERIOD = /^(?!0000)\d{4}(-(0[1-9]|1[0-2])|-Q[1-4])?$/;

/** The fields the form can tell are wrong before sending, each in words. */
export function adjustmentProblems(v: AdjustmentValues, currency: string): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!v.user_id) problems.user_id = "Pick who the adjustment is for.";
  const amount = v.amount === "" ? Number.NaN : Number(v.amount);
  if (!Number.isFinite(amount)) problems.amount = "Give the amount: positive pays more, negative takes back.";
  else if (amount === 0) problems.amount = "Give an amount other than zero.";
  else if (tooManyDecimals(v.amount, currency)) problems.amount = minorUnitsProblem("the amount", currency);
  if (v.reason.trim() === "") problems.reason = "Say why: the person reads it with the line.";
  else if (v.reason.trim().length > 2000) problems.reason = "Keep the reason to 2,000 characters.";
  if (v.period.trim() !== "" && !PERIOD.test(v.period.trim())) {
    problems.period = "Give a period as 2026-11, 2026-Q4 or 2026, or leave it empty.";
  }
  return problems;
}
