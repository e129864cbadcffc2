import { ApiError } from "../../api/errors";
import type { CreateAssignmentBody } from "../../data/comp-plans/mutations";
import { fieldErrors } from "../../lib/field-errors";
import { date } from "../../lib/format";
import { minorUnitsProblem, tooManyDecimals } from "../../lib/money";

// An assignment's form, from the plan's page or the person's: the body it sends and what is wrong with
// it in words ("Pick an end date on or after the start"), found before sending where the form can tell,
// the API's 422s said again in the same words; a 409 (an overlap) is shown by OverlapNotice.

/** An assignment's values as typed: empty dates and quota are none. */
export type AssignmentValues = {
  user_id: string | null;
  effective_from: string;
  effective_to: string;
  quota_override: number | string;
};

const MONEY_MAX = 999_999_999_999.99;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const blank = (value: number | string) => value === "" || (typeof value === "number" && !Number.isFinite(value));

/** The body the API takes for the values (an empty quota is the plan's: null). */
export function assignmentBody(values: AssignmentValues): CreateAssignmentBody {
  return {
    user_id: values.user_id ?? "",
    effective_from: values.effective_from,
    effective_to: values.effective_to === "" ? null : values.effective_to,
    quota_override: blank(values.quota_override) ? null : Number(values.quota_override),
  };
}

/**
 * What the form can tell is wrong, by the parameter the API would name, in words. `tiered`: the plan has
 * tiers, so a quota of its own must be above zero (the tiers are measured against it).
 */
export function assignmentProblems(
  values: AssignmentValues,
  tiered: boolean,
  currency: string,
): Record<string, string> {
  const problems: Record<string, string> = {};
  if (values.user_id === null || values.user_id === "") problems.user_id = "Pick the person to assign.";
  if (!ISO_DATE.test(values.effective_from)) problems.effective_from = "Pick the first day the plan applies to them.";
  if (values.effective_to !== "") {
    if (!ISO_DATE.test(values.effective_to)) problems.effective_to = "Pick the last day, or leave it empty.";
    else if (ISO_DATE.test(values.effective_from) && values.effective_to < values.effective_from) {
      problems.effective_to = `Pick an end date on or after the start (${date(values.effective_from)}).`;
    }
  }
  const quota = values.quota_override;
  if (!blank(quota)) {
    const amount = Number(quota);
    if (!Number.isFinite(amount)) problems.quota_override = "Give the quota as an amount, or leave it empty.";
    else if (amount < 0) problems.quota_override = "Give a quota of zero or more, or leave it empty for the plan's.";
    else if (amount > MONEY_MAX) problems.quota_override = "Give a quota below 1,000,000,000,000.";
    else if (tooManyDecimals(quota, currency)) problems.quota_override = minorUnitsProblem("the quota", currency);
    else if (tiered && amount === 0) {
      problems.quota_override =
        "Give a quota above zero (the plan's tiers are measured against it), or leave it empty.";
    }
  }
  return problems;
}

// The API's 422s by parameter, in the form's words.
const SERVER_WORDS: Record<string, string> = {
  user_id: "Pick someone who is in the list: this person is not known.",
  effective_from: "Pick the first day the plan applies to them.",
  effective_to: "Pick an end date on or after the start, or leave it empty.",
  quota_override: "Give a quota above zero with at most the currency's decimals, or leave it empty for the plan's.",
};

/** The API's 422 details said in words; a parameter this does not know keeps its message. */
export function assignmentErrorsInWords(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([param, message]) => [param, SERVER_WORDS[param] ?? message]));
}

/** Whether the API refused the dates because they overlap another assignment of the person (409). */
export const isOverlap = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 409 && error.code === "conflict";

/**
 * A write's errors: by field in words (422), the overlap for OverlapNotice (409), anything else for the
 * form as a whole (its message and request id).
 */
export function assignmentErrors(error: unknown): { fields: Record<string, string>; overlap: boolean; form?: Error } {
  if (!error) return { fields: {}, overlap: false };
  if (isOverlap(error)) return { fields: {}, overlap: true };
  const fields = assignmentErrorsInWords(fieldErrors(error));
  if (Object.keys(fields).length > 0) return { fields, overlap: false };
  return { fields, overlap: false, form: error instanceof Error ? error : new Error(String(error)) };
}
