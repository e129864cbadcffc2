import type { CreateSpiffBody } from "../../data/spiffs/mutations";
import { date } from "../../lib/format";
import { decimalPlaces, minorUnitsProblem, tooManyDecimals } from "../../lib/money";

// What is wrong with a SPIFF form, in words a person acts on ("Give the SPIFF a name"), never the
// server's field strings ("must be at least 1 characters"): found before sending where the form can
// tell, and the API's 422s said again in the same words where it cannot (an unknown currency code).

/** The SPIFF form's values as typed (SpiffForm's `valuesOf`). */
export interface SpiffValues {
  name: string;
  description: string;
  currency: string;
  starts_on: string;
  ends_on: string;
  payout: "flat" | "rate";
  amount: number | string;
  rate: number | string;
  min_arr_amount: number | string;
  deal_types: string[];
  user_ids: string[];
  active: boolean;
}

const asNumber = (value: number | string) => (value === "" ? null : Number(value));

/** The body the form sends for its values (an empty amount or rate is NaN: the API refuses it). */
export function spiffBody(v: SpiffValues): CreateSpiffBody {
  return {
    name: v.name,
    description: v.description.trim() || null,
    currency: v.currency.trim().toUpperCase(),
    starts_on: v.starts_on,
    ends_on: v.ends_on,
    payout:
      v.payout === "flat"
        ? { type: "flat", amount: asNumber(v.amount) ?? Number.NaN }
        : { type: "rate", rate: asNumber(v.rate) ?? Number.NaN },
    criteria: {
      min_arr_amount: asNumber(v.min_arr_amount),
      deal_types:
        v.deal_types.length > 0 ? (v.deal_types as NonNullable<CreateSpiffBody["criteria"]>["deal_types"]) : null,
      user_ids: v.user_ids.length > 0 ? v.user_ids : null,
    },
    active: v.active,
  };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const blank = (value: number | string) => value === "" || (typeof value === "number" && !Number.isFinite(value));
/** The fields the form can tell are wrong, by the parameter the API would name, each in words. */
export function spiffProblems(v: SpiffValues): Record<string, string> {
  const problems: Record<string, string> = {};
  if (v.name.trim() === "") problems.name = "Give the SPIFF a name.";
  else if (v.name.trim().length > 200) problems.name = "Keep the name to 200 characters.";
  if (v.description.length > 2000) problems.description = "Keep the description to 2,000 characters.";
  if (!/^[A-Za-z]{3}$/.test(v.currency.trim())) problems.currency = "Give a three-letter currency code, such as USD.";
  if (!ISO_DATE.test(v.starts_on)) problems.starts_on = "Pick the first day deals count.";
  if (!ISO_DATE.test(v.ends_on)) problems.ends_on = "Pick the last day deals count.";
  else if (ISO_DATE.test(v.starts_on) && v.ends_on < v.starts_on) {
    problems.ends_on = `Pick an end date on or after the start (${date(v.starts_on)}).`;
  }
  if (v.payout === "flat") {
    if (blank(v.amount)) problems["payout.amount"] = "Give the amount paid per deal.";
    else if (Number(v.amount) < 0) problems["payout.amount"] = "Give an amount of zero or more.";
    else if (tooManyDecimals(v.amount, v.currency))
      problems["payout.amount"] = minorUnitsProblem("the amount", v.currency);
  } else if (blank(v.rate)) problems["payout.rate"] = "Give the rate: 0.02 pays 2 % of the credit.";
  else if (Number(v.rate) < 0 || Number(v.rate) > 10) problems["payout.rate"] = "Give a rate from 0 to 10 (1,000 %).";
  else if (decimalPlaces(v.rate) > 6) problems["payout.rate"] = "Give the rate with at most 6 decimals.";
  if (!blank(v.min_arr_amount) && Number(v.min_arr_amount) < 0) {
    problems["criteria.min_arr_amount"] = "Give a minimum ARR of zero or more, or leave it empty.";
  } else if (!blank(v.min_arr_amount) && tooManyDecimals(v.min_arr_amount, v.currency)) {
    problems["criteria.min_arr_amount"] = minorUnitsProblem("the minimum ARR", v.currency);
  }
  return problems;
}

// The API's 422s the form cannot foresee, by parameter: what to do, in the form's words.
const SERVER_WORDS: Record<string, (message: string) => string> = {
  name: () => "Give the SPIFF a name of at most 200 characters.",
  currency: (message) =>
    /is not an active ISO 4217/.test(message)
      ? `${message.split(" ")[0]} is not a currency code in use: give one such as USD or EUR.`
      : "Give a three-letter currency code, such as USD.",
  starts_on: () => "Pick the first day deals count.",
  ends_on: () => "Pick an end date on or after the start.",
  "payout.amount": () => "Give the amount paid per deal: zero or more, with at most the currency's decimals.",
  "payout.rate": () => "Give a rate from 0 to 10 with at most 6 decimals: 0.02 pays 2 %.",
  "criteria.min_arr_amount": () => "Give a minimum ARR of zero or more, or leave it empty.",
  "criteria.user_ids": () => "Pick at most 1,000 people, or none for everyone credited.",
};

/** The API's 422 details (by parameter) said in words; a parameter this does not know keeps its message. */
export function spiffErrorsInWords(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([param, message]) => {
      const field = param.replace(/\[\d+\]$/, "");
      const words = SERVER_WORDS[field];
      return [param, words ? words(message) : message];
    }),
  );
}
