import { date } from "../../lib/format";
import { compareDecimals, decimalPlaces, minorUnitsProblem, plainDecimal, tooManyDecimals } from "../../lib/money";
import { DEAL_TYPE_LABELS } from "../../ui/labels";
import { LEVEL_DEPTHS, type PlanValues, percentShown } from "./plan-values";

// What is wrong with a plan form, in words a person acts on ("Give the plan a name"), never the
// server's field strings ("must be at least 1 characters"): found before sending where the form can
// tell (every rule of POST /comp-plans but an unknown currency code), and the API's 422s said again in
// the same words. Keyed by the parameter the API names (`tiers[1].rate`); a multiplier's row by its
// place in the form (`multipliers[0].factor`), since its API parameter is the deal type it lacks.

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const MONEY_MAX = 999_999_999_999.99;
const MAX_TIERS = 50;

/** A decimal typed in percent that the API would take as a ratio: ≤ `max` %, ≤ 4 decimals (6 as a ratio). */
function percentProblem(text: string, words: { missing: string; noun: string; max: string; maxWords: string }) {
  if (text.trim() === "") return words.missing;
  const plain = plainDecimal(text);
  if (plain === null) return `Give ${words.noun} as a number of percent, such as 12.5.`;
  if (plain.startsWith("-")) return `Give ${words.noun} of 0% or more.`;
  if (compareDecimals(plain, words.max) > 0) return `Give ${words.noun} of at most ${words.maxWords}%.`;
  if (decimalPlaces(plain) > 4) return `Give ${words.noun} with at most 4 decimals (12.3456%).`;
  return undefined;
}

/** Money as typed (NumberInput's text): none, or ≥ 0 with the plan currency's decimals at most. */
function moneyProblem(text: string, noun: string, currency: string): string | undefined {
  if (text.trim() === "") return undefined;
  const plain = plainDecimal(text);
  if (plain === null) return `Give ${noun} as an amount, such as 50000.`;
  if (plain.startsWith("-")) return `Give ${noun} of zero or more.`;
  if (Number(plain) > MONEY_MAX) return `Give ${noun} below 1,000,000,000,000.`;
  if (tooManyDecimals(plain, currency)) return minorUnitsProblem(noun, currency);
  return undefined;
}

const typeName = (type: string) => DEAL_TYPE_LABELS[type as keyof typeof DEAL_TYPE_LABELS] ?? type;

function tierProblems(v: PlanValues, problems: Record<string, string>): void {
  if (v.tiers.length === 0) {
    problems.tiers = "Add at least one tier, or pay one rate on all credit.";
    return;
  }
  if (v.tiers.length > MAX_TIERS) problems.tiers = `Keep to ${MAX_TIERS} tiers.`;
  v.tiers.forEach((tier, i) => {
    const n = i + 1;
    const rate = percentProblem(tier.rate, {
      missing: `Give tier ${n}'s rate in percent (10 for 10%).`,
      noun: "a rate",
      max: "1000",
      maxWords: "1,000",
    });
    if (rate) problems[`tiers[${i}].rate`] = rate;
    const param = `tiers[${i}].from_attainment`;
    if (i === 0) {
      if (plainDecimal(tier.from) !== "0") problems[param] = "The first tier starts at 0% of quota.";
      return;
    }
    const from = percentProblem(tier.from, {
      missing: `Give where tier ${n} starts, in percent of quota (100 = quota met).`,
      noun: "where the tier starts",
      max: "100000",
      maxWords: "100,000",
    });
    if (from) {
      problems[param] = from;
      return;
    }
    const previous = plainDecimal(v.tiers[i - 1]!.from);
    if (previous !== null && compareDecimals(plainDecimal(tier.from)!, previous) <= 0) {
      problems[param] =
        `Start tier ${n} above ${percentShown(previous)} of quota, where tier ${i} starts: each tier starts where the one before it ends.`;
    }
  });
  const quota = plainDecimal(v.quota);
  if (v.quota.trim() === "") problems.quota ??= "Give the quota the tiers are measured against.";
  else if (quota !== null && Number(quota) === 0)
    problems.quota ??= "Give a quota above zero: the tiers are measured against it.";
}

function multiplierProblems(v: PlanValues, problems: Record<string, string>): void {
  const seen = new Set<string>();
  v.multipliers.forEach((m, i) => {
    if (m.type === "") problems[`multipliers[${i}].type`] = "Pick the deal type this multiplier applies to.";
    else if (seen.has(m.type)) {
      problems[`multipliers[${i}].type`] = `${typeName(m.type)} already has a multiplier: each deal type takes one.`;
    }
    seen.add(m.type);
    const plain = plainDecimal(m.factor);
    let factor: string | undefined;
    if (plain === null) factor = "Give the factor: 1 counts the deal in full, 0.5 half.";
    else if (plain.startsWith("-")) factor = "Give a factor of zero or more.";
    else if (compareDecimals(plain, "1000") > 0) factor = "Give a factor of at most 1,000.";
    else if (decimalPlaces(plain) > 6) factor = "Give the factor with at most 6 decimals.";
    if (factor) problems[`multipliers[${i}].factor`] = factor;
  });
}

/** An override plan's levels: at least one, each depth once, each rate a percent the API takes. */
function levelProblems(v: PlanValues, problems: Record<string, string>): void {
  if (v.levels.length === 0) {
    problems.override_levels = "Add at least one level: the rate a manager earns on the credits of their reports.";
    return;
  }
  const seen = new Set<string>();
  v.levels.forEach((level, i) => {
    if (!(LEVEL_DEPTHS as readonly string[]).includes(level.depth)) {
      problems[`override_levels[${i}].depth`] = "Pick a depth from 1 (direct reports) to 5.";
    } else if (seen.has(level.depth)) {
      problems[`override_levels[${i}].depth`] = `Depth ${level.depth} already has a rate: each depth takes one.`;
    }
    seen.add(level.depth);
    const rate = percentProblem(level.rate, {
      missing: `Give the rate at depth ${level.depth} in percent (3 for 3%).`,
      noun: "a rate",
      max: "1000",
      maxWords: "1,000",
    });
    if (rate) problems[`override_levels[${i}].rate`] = rate;
  });
}

/** The fields the form can tell are wrong, by parameter, each in words. */
export function planProblems(v: PlanValues): Record<string, string> {
  const problems: Record<string, string> = {};
  if (v.name.trim() === "") problems.name = "Give the plan a name.";
  else if (v.name.trim().length > 200) problems.name = "Keep the name to 200 characters.";
  if (v.description.length > 2000) problems.description = "Keep the description to 2,000 characters.";
  if (!/^[A-Za-z]{3}$/.test(v.currency.trim())) problems.currency = "Give a three-letter currency code, such as USD.";
  if (v.kind === "override") levelProblems(v, problems);
  else standardProblems(v, problems);
  if (!ISO_DATE.test(v.effective_from)) problems.effective_from = "Pick the first day the plan is in force.";
  if (v.effective_to !== "") {
    if (!ISO_DATE.test(v.effective_to)) problems.effective_to = "Pick the last day, or leave it empty.";
    else if (ISO_DATE.test(v.effective_from) && v.effective_to < v.effective_from) {
      problems.effective_to = `Pick an end date on or after the start (${date(v.effective_from)}).`;
    }
  }
  return problems;
}

/** A standard plan's quota, limits, rating and multipliers (an override plan has none of them). */
function standardProblems(v: PlanValues, problems: Record<string, string>): void {
  const money: [keyof PlanValues & string, string][] = [
    ["quota", "the quota"],
    ["min_deal_amount", "the minimum deal amount"],
    ["cap_per_period", "the cap"],
  ];
  for (const [field, noun] of money) {
    const problem = moneyProblem(v[field] as string, noun, v.currency);
    if (problem) problems[field] = problem;
  }
  if (v.rating === "tiers") tierProblems(v, problems);
  else {
    const rate = percentProblem(v.base_rate, {
      missing: "Give the rate paid on all credit, in percent (10 for 10%).",
      noun: "a rate",
      max: "1000",
      maxWords: "1,000",
    });
    if (rate) problems.base_rate = rate;
  }
  multiplierProblems(v, problems);
}

// The API's 422s the form cannot foresee (an unknown currency code, a rule changed on the server), by
// parameter: what to do, in the form's words.
const SERVER_WORDS: Record<string, (message: string, index: number) => string> = {
  name: () => "Give the plan a name of at most 200 characters.",
  description: () => "Keep the description to 2,000 characters.",
  status: () => "Pick draft, active or archived.",
  currency: (message) =>
    /is not an active ISO 4217/.test(message)
      ? `${message.split(" ")[0]} is not a currency code in use: give one such as USD or EUR.`
      : "Give a three-letter currency code, such as USD.",
  period: () => "Pick month, quarter or year.",
  quota: (message) =>
    /with tiers/.test(message)
      ? "Give a quota above zero: the tiers are measured against it."
      : "Give the quota as an amount of zero or more, with at most the currency's decimals.",
  base_rate: (message) =>
    /required/.test(message)
      ? "Give the rate paid on all credit, or add tiers."
      : "Give a rate from 0 to 1,000% with at most 4 decimals.",
  tiers: () => `Give from 1 to ${MAX_TIERS} tiers, or pay one rate on all credit.`,
  "tiers.from_attainment": (message, i) =>
    i === 0
      ? "The first tier starts at 0% of quota."
      : /greater than/.test(message)
        ? `Start tier ${i + 1} above where tier ${i} starts: each tier starts where the one before it ends.`
        : "Give where the tier starts in percent of quota, at most 100,000% with 4 decimals.",
  "tiers.rate": () => "Give the tier's rate from 0 to 1,000% with at most 4 decimals.",
  min_deal_amount: () => "Give the minimum deal amount: zero or more, with at most the currency's decimals.",
  cap_per_period: () => "Give the cap: zero or more, with at most the currency's decimals.",
  effective_from: () => "Pick the first day the plan is in force.",
  effective_to: () => "Pick an end date on or after the start, or leave it empty.",
  kind: () => "A plan's kind is fixed when it is created: duplicate it as the other kind instead.",
  override_levels: (message) =>
    /each depth once/.test(message)
      ? "Give each depth one rate."
      : /not allowed/.test(message)
        ? "Only an override plan pays by levels."
        : "Add at least one level: the rate a manager earns on the credits of their reports.",
  "override_levels.depth": () => "Pick a depth from 1 (direct reports) to 5.",
  "override_levels.rate": () => "Give the level's rate from 0 to 1,000% with at most 4 decimals.",
};

/**
 * The API's 422 details (by parameter) said in words, placed on the form's fields: a multiplier's
 * (`deal_type_multipliers.renewal`) on the row of that deal type. A parameter this does not know keeps its message.
 */
export function planErrorsInWords(errors: Record<string, string>, v: PlanValues): Record<string, string> {
  const said: Record<string, string> = {};
  for (const [param, message] of Object.entries(errors)) {
    const multiplier = /^deal_type_multipliers\.(.+)$/.exec(param);
    if (multiplier) {
      const row = v.multipliers.findIndex((m) => m.type === multiplier[1]);
      const words = /is not a deal type/.test(message)
        ? "Pick a deal type from the list."
        : "Give a factor from 0 to 1,000 with at most 6 decimals.";
      said[row >= 0 ? `multipliers[${row}].factor` : "deal_type_multipliers"] = words;
      continue;
    }
    const tier = /^tiers\[(\d+)\]\.(from_attainment|rate)$/.exec(param);
    const level = /^override_levels\[\d+\]\.(depth|rate)$/.exec(param);
    const words = tier
      ? SERVER_WORDS[`tiers.${tier[2]}`]
      : level
        ? SERVER_WORDS[`override_levels.${level[1]}`]
        : SERVER_WORDS[param];
    said[param] = words ? words(message, tier ? Number(tier[1]) : 0) : message;
  }
  return said;
}
