import { ApiError } from "../../api/errors";
import type { PreviewBody } from "../../data/commissions/mutations";
import type { CreateDealBody, UpdateDealBody } from "../../data/deals/mutations";
import type { DealDetail, DealType } from "../../data/deals/queries";
import { fieldErrors } from "../../lib/field-errors";
import { date, percent } from "../../lib/format";
import { decimalPlaces, minorUnitsProblem, tooManyDecimals } from "../../lib/money";

// The deal form (issue #30): its values as typed, the bodies it sends (a create whole, an edit as the
// fields it changes), and what is wrong with it in words a person acts on, by the parameter the API
// would name: found before sending where the form can tell, the API's 422s said the same way where not.

/** One share of the credit as typed. */
export interface SplitValues {
  user_id: string | null;
  percent: number | string;
}

export interface DealValues {
  opportunity_name: string;
  owner_id: string | null;
  arr_amount: number | string;
  currency: string;
  deal_type: DealType;
  close_date: string;
  /** None: the owner at 100 % (the API's default, which follows the owner). */
  splits: SplitValues[];
  contract_start: string;
  contract_end: string;
  external_id: string;
}

/** A new deal's values: closed today, in US dollars, new business, owned by whoever is picked. */
export function newDealValues(today: string): DealValues {
  return {
    opportunity_name: "",
    owner_id: null,
    arr_amount: "",
    currency: "USD",
    deal_type: "new_business",
    close_date: today,
    splits: [],
    contract_start: "",
    contract_end: "",
    external_id: "",
  };
}

/** True when the deal credits its owner alone, at 100 %: the form shows no split rows then. */
const ownerAlone = (deal: Pick<DealDetail, "owner_id" | "splits">) =>
  deal.splits.length === 1 && deal.splits[0]!.user_id === deal.owner_id && deal.splits[0]!.percent === 100;

/** The values of a deal being edited. */
export function valuesOfDeal(deal: DealDetail): DealValues {
  return {
    opportunity_name: deal.opportunity_name,
    owner_id: deal.owner_id,
    arr_amount: deal.arr_amount,
    currency: deal.currency,
    deal_type: deal.deal_type,
    close_date: deal.close_date,
    splits: ownerAlone(deal) ? [] : deal.splits.map((s) => ({ user_id: s.user_id, percent: s.percent })),
    contract_start: deal.contract_start ?? "",
    contract_end: deal.contract_end ?? "",
    external_id: deal.external_id ?? "",
  };
}

/** An empty field is NaN: the API refuses it, and the form says so before. */
const numberOf = (value: number | string) => (value === "" ? Number.NaN : Number(value));

const splitsOf = (v: DealValues) => v.splits.map((s) => ({ user_id: s.user_id ?? "", percent: numberOf(s.percent) }));

/** POST /deals (and the preview) for these values. */
export function dealBody(v: DealValues): CreateDealBody {
  const contract = v.contract_start !== "" || v.contract_end !== "";
  return {
    opportunity_name: v.opportunity_name.trim(),
    owner_id: v.owner_id ?? "",
    arr_amount: numberOf(v.arr_amount),
    currency: v.currency.trim().toUpperCase(),
    deal_type: v.deal_type,
    close_date: v.close_date,
    ...(v.splits.length > 0 ? { splits: splitsOf(v) } : {}),
    ...(contract ? { contract_start: v.contract_start || null, contract_end: v.contract_end || null } : {}),
    ...(v.external_id.trim() ? { external_id: v.external_id.trim() } : {}),
  };
}

/**
 * PATCH /deals/{id}: only what the edit changed (the API merges). No split rows means the owner at 100 %:
 * `splits: null` when the deal was split or its owner changes, so the credit follows the owner again.
 */
export function dealPatch(deal: DealDetail, v: DealValues): UpdateDealBody {
  const next = dealBody(v);
  const patch: UpdateDealBody = {};
  if (next.opportunity_name !== deal.opportunity_name) patch.opportunity_name = next.opportunity_name;
  if (next.owner_id !== deal.owner_id) patch.owner_id = next.owner_id;
  if (next.arr_amount !== deal.arr_amount) patch.arr_amount = next.arr_amount;
  if (next.currency !== deal.currency) patch.currency = next.currency;
  if (next.deal_type !== deal.deal_type) patch.deal_type = next.deal_type;
  if (next.close_date !== deal.close_date) patch.close_date = next.close_date;
  const start = next.contract_start ?? null;
  const end = next.contract_end ?? null;
  if (start !== deal.contract_start || end !== deal.contract_end) {
    patch.contract_start = start;
    patch.contract_end = end;
  }
  if ((next.external_id ?? null) !== deal.external_id) patch.external_id = next.external_id ?? null;
  if (next.splits) {
    const same =
      next.splits.length === deal.splits.length &&
      next.splits.every((s, i) => s.user_id === deal.splits[i]!.user_id && s.percent === deal.splits[i]!.percent);
    if (!same) patch.splits = next.splits;
  } else if (!ownerAlone(deal) || patch.owner_id !== undefined) {
    patch.splits = null;
  }
  return patch;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A calendar date the API takes: YYYY-MM-DD, a real day, from year 0001. */
function isDate(text: string): boolean {
  const parts = ISO_DATE.exec(text);
  if (!parts || parts[1] === "0000") return false;
  const day = new Date(0);
  day.setUTCFullYear(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]));
  return day.toISOString().slice(0, 10) === text;
}

const blank = (value: number | string) => value === "" || (typeof value === "number" && !Number.isFinite(value));
const MONEY_MAX = 999_999_999_999.99;
/** Percents in ten-thousandths (4 places, exact): 100 % is 1,000,000. */
const WHOLE = 1_000_000;

/** A share's problem in words, or undefined when the API takes it. */
function shareProblem(value: number | string): string | undefined {
  if (blank(value) || !Number.isFinite(Number(value))) return "Give this person's share in percent.";
  const share = Number(value);
  if (share <= 0 || share > 100) return "Give a share above 0 and at most 100 %.";
  if (decimalPlaces(value) > 4) return "Give the share with at most 4 decimals.";
  return undefined;
}

/**
 * What the shares add up to, exactly (ten-thousandths of a percent, as the API compares them), or
 * undefined while one of them is not a share the API would take.
 */
export function splitSum(splits: readonly SplitValues[]): number | undefined {
  if (splits.some((s) => shareProblem(s.percent) !== undefined)) return undefined;
  return splits.reduce((sum, s) => sum + Math.round(Number(s.percent) * 10_000), 0) / 10_000;
}

/** "The shares add up to 90 %…": the sum in the one percent style, every decimal it has. */
export const sumWords = (sum: number) =>
  `The shares add up to ${percent(sum / 100, 4)}; they must add up to exactly 100 %.`;

function splitProblems(v: DealValues, problems: Record<string, string>): void {
  if (v.splits.length > 50) problems.splits = "Credit at most 50 people.";
  const seen = new Set<string>();
  v.splits.forEach((s, i) => {
    if (!s.user_id) problems[`splits[${i}].user_id`] = "Pick who this share is for.";
    else if (seen.has(s.user_id)) problems[`splits[${i}].user_id`] = "This person already has a share above.";
    else seen.add(s.user_id);
    const share = shareProblem(s.percent);
    if (share) problems[`splits[${i}].percent`] = share;
  });
  const sum = splitSum(v.splits);
  if (problems.splits || v.splits.length === 0 || sum === undefined) return;
  if (Math.round(sum * 10_000) !== WHOLE) problems.splits = sumWords(sum);
}

function contractProblems(v: DealValues, problems: Record<string, string>): void {
  const { contract_start: start, contract_end: end } = v;
  if (start !== "" && !isDate(start))
    problems.contract_start = "Pick the day the contract starts, or leave both empty.";
  if (end !== "" && !isDate(end)) problems.contract_end = "Pick the day the contract ends, or leave both empty.";
  if (problems.contract_start || problems.contract_end) return;
  if (start === "" && end !== "") problems.contract_start = "Give the contract's start too, or neither date.";
  else if (end === "" && start !== "") problems.contract_end = "Give the contract's end too, or neither date.";
  else if (start !== "" && end <= start)
    problems.contract_end = `Pick a contract end after its start (${date(start)}).`;
}

/** The fields the form can tell are wrong before sending, by the parameter the API would name, in words. */
export function dealProblems(v: DealValues): Record<string, string> {
  const problems: Record<string, string> = {};
  const name = v.opportunity_name.trim();
  if (name === "") problems.opportunity_name = "Give the deal a name, as your CRM calls the opportunity.";
  else if (name.length > 500) problems.opportunity_name = "Keep the name to 500 characters.";
  if (!v.owner_id) problems.owner_id = "Pick who owns the deal.";
  if (blank(v.arr_amount) || !Number.isFinite(Number(v.arr_amount))) problems.arr_amount = "Give the deal's ARR.";
  else if (Number(v.arr_amount) < 0) problems.arr_amount = "Give an ARR of zero or more.";
  else if (Number(v.arr_amount) > MONEY_MAX) problems.arr_amount = "Give an ARR below a trillion.";
  else if (tooManyDecimals(v.arr_amount, v.currency)) problems.arr_amount = minorUnitsProblem("the ARR", v.currency);
  if (!/^[A-Za-z]{3}$/.test(v.currency.trim())) problems.currency = "Give a three-letter currency code, such as USD.";
  if (!isDate(v.close_date)) problems.close_date = "Pick the day the deal closed.";
  splitProblems(v, problems);
  contractProblems(v, problems);
  if (v.external_id.trim().length > 255) problems.external_id = "Keep the CRM id to 255 characters.";
  return problems;
}

/** What the preview prices: every field but the name, CRM id and contract dates (they change no line). */
const PRICED = ["owner_id", "arr_amount", "currency", "close_date", "splits"];
const priced = (param: string) => PRICED.some((field) => param === field || param.startsWith(`${field}[`));

/**
 * The body the preview asks about, or null while a field that prices the deal is not one the API takes.
 * A deal with no name yet is priced as "New deal": its name changes nothing. An edit names the deal
 * (`deal_id`): it is priced as saving these values would price it, in its own place among its periods' deals.
 */
export function previewBody(v: DealValues, dealId?: string): PreviewBody | null {
  if (Object.keys(dealProblems(v)).some(priced)) return null;
  const { external_id: _crm, contract_start: _start, contract_end: _end, ...body } = dealBody(v);
  return { ...body, opportunity_name: body.opportunity_name || "New deal", ...(dealId ? { deal_id: dealId } : {}) };
}

// The API's 422s the form cannot foresee (or a client that skipped it), by parameter: what to do, in the
// form's words.
const SERVER_WORDS: Record<string, (message: string) => string> = {
  opportunity_name: () => "Give the deal a name of at most 500 characters.",
  owner_id: (message) =>
    /does not exist/.test(message)
      ? "The owner is not someone the service knows: pick another."
      : "Pick who owns the deal.",
  arr_amount: () => "Give the deal's ARR: zero or more, with at most the currency's decimals.",
  currency: (message) =>
    /is not an active ISO 4217/.test(message)
      ? `${message.split(" ")[0]} is not a currency code in use: give one such as USD or EUR.`
      : "Give a three-letter currency code, such as USD.",
  deal_type: () => "Pick the deal type.",
  close_date: () => "Pick the day the deal closed.",
  contract_start: () => "Give the contract's start and end, or neither.",
  contract_end: () => "Pick a contract end after its start, or leave both empty.",
  external_id: () => "Give a CRM id of at most 255 characters, or leave it empty.",
  splits: (message) => {
    const sum = /sum to ([\d.]+)\)/.exec(message);
    return sum ? sumWords(Number(sum[1])) : "Credit between 1 and 50 people, each once.";
  },
  "splits.user_id": (message) =>
    /repeats/.test(message)
      ? "This person already has a share above."
      : /does not exist/.test(message)
        ? "This person is not someone the service knows: pick another."
        : "Pick who this share is for.",
  "splits.percent": () => "Give a share above 0 and at most 100 %, with at most 4 decimals.",
};

/** The API's 422 details (by parameter) said in words; a parameter this does not know keeps its message. */
export function dealErrorsInWords(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([param, message]) => {
      const words = SERVER_WORDS[param.replace(/\[\d+\]/, "")];
      return [param, words ? words(message) : message];
    }),
  );
}

/**
 * A failed save's errors by field, in words: the 422's details, and the 409 of a CRM id another deal
 * holds (its message names that deal), which belongs beside the CRM id field. Empty for anything else.
 */
export function dealErrorsOf(error: unknown): Record<string, string> {
  if (error instanceof ApiError && error.code === "conflict" && /external_id/.test(error.message)) {
    const other = /\((deal_[^)]+)\)/.exec(error.message)?.[1];
    return {
      external_id: `Another deal${other ? ` (${other})` : ""} already has this CRM id: give another, or leave it empty.`,
    };
  }
  return dealErrorsInWords(fieldErrors(error));
}
