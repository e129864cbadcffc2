import {
  amountNumber,
  cmp,
  compareTexts,
  divPow10,
  type Fixed,
  fixedText,
  formatIn,
  formatPercent,
  fx,
  minorUnits,
  norm,
  parse,
  plain,
  quotient,
  ratioText,
  times,
} from "../../money/index.js";
import { conversionFor, convertScaled, fxExplanation, fxSummary, rateText, roundLine } from "./convert.js";
import type {
  Credit,
  DealInput,
  FxMissing,
  FxRate,
  SpiffInput,
  SpiffLineExplanation,
  SpiffLineResult,
} from "./types.js";

/** Which of a SPIFF's deal-level conditions a deal meets and misses (user_ids are checked per user). */
export interface SpiffCheck {
  met: string[];
  missed: string[];
}

function check(result: SpiffCheck, ok: boolean, met: string, missed: string): void {
  if (ok) result.met.push(met);
  else result.missed.push(missed);
}

/**
 * §15: how a deal's amounts reach a SPIFF's currency: as they are (`rate` null), converted, or not at all
 * (`missing` when only a rate is wanting). A flat payout without min_arr_amount needs no rate.
 */
type SpiffCurrency = { ok: true; rate: FxRate | null; text: string } | { ok: false; text: string; missing?: FxMissing };

function currencyFor(deal: DealInput, spiff: SpiffInput): SpiffCurrency {
  if (deal.currency === spiff.currency) return { ok: true, rate: null, text: `currency ${deal.currency}` };
  if (deal.fx_rates === undefined) return { ok: false, text: `currency ${deal.currency} is not ${spiff.currency}` };
  const conversion = conversionFor(deal, spiff.currency, spiff.fx_max_age_days);
  if (conversion.fx === undefined) {
    const minArr = spiff.criteria.min_arr_amount;
    if (spiff.payout.type === "flat" && (minArr === null || minArr === undefined))
      return { ok: true, rate: null, text: `currency ${deal.currency} (a flat payout needs no rate)` };
    return { ok: false, text: conversion.reason, missing: conversion.missing };
  }
  const r = conversion.fx;
  if (r === null) return { ok: true, rate: null, text: `currency ${deal.currency}` };
  return { ok: true, rate: r, text: `currency ${r.from} converted to ${r.to} at ${rateText(r)} (${r.rate_date})` };
}

/** arr_amount (converted into the SPIFF's currency by `rate`) ≥ minimum, exactly. */
function arrReaches(deal: DealInput, minimum: Fixed, rate: FxRate | null): boolean {
  const arr = parse(deal.arr_amount);
  if (rate === null) return cmp(arr, minimum) >= 0;
  return cmp(convertScaled(arr, rate, rate.den), times(minimum, fx(norm(rate.den)))) >= 0;
}

/** A value in units of 1/rate.den, rounded to the cent for a summary. */
/** A converted value in units of 1/rate.den, at the minor unit of the rate's target: the summary's figure. */
const scaledBy = (rate: FxRate, value: Fixed): Fixed => quotient(value, fx(norm(rate.den)), minorUnits(rate.to));

export function checkSpiff(deal: DealInput, spiff: SpiffInput): SpiffCheck {
  const result: SpiffCheck = { met: [], missed: [] };
  const { min_arr_amount: minArr, deal_types: types } = spiff.criteria;
  check(result, spiff.active, "SPIFF active", "SPIFF inactive");
  const currency = currencyFor(deal, spiff);
  check(result, currency.ok, currency.text, currency.text);
  const window = `${spiff.starts_on} to ${spiff.ends_on}`;
  const inWindow = spiff.starts_on <= deal.close_date && deal.close_date <= spiff.ends_on;
  check(
    result,
    inWindow,
    `close_date ${deal.close_date} within ${window}`,
    `close_date ${deal.close_date} outside ${window}`,
  );
  if (minArr !== null && minArr !== undefined && currency.ok) {
    const amount = parse(deal.arr_amount);
    const minimum = parse(minArr);
    const rate = currency.rate;
    const shown =
      rate === null ? "" : ` (${formatIn(scaledBy(rate, convertScaled(amount, rate, rate.den)), rate.to)} ${rate.to})`;
    const arr = `arr_amount ${formatIn(amount, deal.currency)}${shown}`;
    const ok = arrReaches(deal, minimum, rate);
    const min = formatIn(minimum, spiff.currency);
    check(result, ok, `${arr} ≥ ${min}`, `${arr} below ${min}`);
  }
  if (types !== null && types !== undefined) {
    const listed = `deal_type ${deal.deal_type}`;
    check(result, types.includes(deal.deal_type), `${listed} is listed`, `${listed} is not listed`);
  }
  return result;
}

/** checkSpiff's verdict without its texts: most deals miss most SPIFFs. */
function qualifies(deal: DealInput, spiff: SpiffInput): boolean {
  const { min_arr_amount: minArr, deal_types: types } = spiff.criteria;
  if (!spiff.active) return false;
  if (deal.currency !== spiff.currency)
    return deal.fx_rates !== undefined && checkSpiff(deal, spiff).missed.length === 0;
  if (!(spiff.starts_on <= deal.close_date && deal.close_date <= spiff.ends_on)) return false;
  if (types !== null && types !== undefined && !types.includes(deal.deal_type)) return false;
  return minArr === null || minArr === undefined || compareTexts(deal.arr_amount, minArr) >= 0;
}

function userListed(spiff: SpiffInput, userId: string): boolean {
  const users = spiff.criteria.user_ids;
  return users === null || users === undefined || users.includes(userId);
}

/** The unrounded amount; with a rate, in units of 1/rate.den (a flat payout's is whole: it needs no rate). */
function unroundedOf(spiff: SpiffInput, credit: Credit, rate: FxRate | null): Fixed {
  if (spiff.payout.type === "flat") {
    const flat = divPow10(times(parse(spiff.payout.amount), parse(credit.percent)), 2);
    return rate === null ? flat : times(flat, fx(norm(rate.den)));
  }
  return times(convertScaled(parse(credit.credit), rate, rate?.den ?? 1n), parse(spiff.payout.rate));
}

function payoutText(spiff: SpiffInput, credit: Credit, rate: FxRate | null): string {
  if (spiff.payout.type === "flat") {
    return `flat ${formatIn(parse(spiff.payout.amount), spiff.currency)} × ${plain(parse(credit.percent))}% split`;
  }
  const amount = parse(credit.credit);
  const converted = rate === null ? amount : scaledBy(rate, convertScaled(amount, rate, rate.den));
  return `${formatIn(converted, spiff.currency)} × ${formatPercent(parse(spiff.payout.rate))}`;
}

/**
 * A SPIFF line whose explanation is written on its first read, as plan lines' are (bucket.ts `PlanLine`):
 * an own enumerable accessor replaced by the value on first read; the inputs sit in private fields.
 */
class SpiffLine {
  readonly deal_id: string;
  readonly user_id: string;
  readonly spiff_id: string;
  readonly period: string;
  readonly kind = "spiff" as const;
  readonly amount: string;
  /** The SPIFF's (API.md §15). */
  readonly currency: string;
  declare readonly explanation: SpiffLineExplanation;
  readonly #deal: DealInput;
  readonly #spiff: SpiffInput;
  readonly #credit: Credit;
  readonly #rounded: Fixed;
  readonly #rate: FxRate | null;

  constructor(deal: DealInput, spiff: SpiffInput, credit: Credit, period: string, rate: FxRate | null) {
    this.deal_id = deal.id;
    this.user_id = credit.user_id;
    this.spiff_id = spiff.id;
    this.period = period;
    // A SPIFF line is in the SPIFF's currency and rounds once to its minor unit (API.md §15); a deal in
    // another currency rounds by convert.ts `roundLine`, as plan lines do.
    const unrounded = unroundedOf(spiff, credit, rate);
    const converted = deal.currency !== spiff.currency;
    this.#rounded = roundLine(unrounded, spiff.currency, converted ? (rate?.den ?? 1n) : null);
    this.amount = fixedText(this.#rounded, minorUnits(spiff.currency));
    this.currency = spiff.currency;
    this.#deal = deal;
    this.#spiff = spiff;
    this.#credit = credit;
    this.#rate = rate;
    Object.defineProperty(this, "explanation", LAZY_EXPLANATION);
  }

  static explain(line: SpiffLine): SpiffLineExplanation {
    const spiff = line.#spiff;
    const credit = line.#credit;
    const amount = line.#rounded;
    const rate = line.#rate;
    const { met } = checkSpiff(line.#deal, spiff);
    const dealCredit = parse(credit.credit);
    const text = (f: Fixed) => (rate === null ? plain(f) : ratioText(f, rate.den));
    const creditText = text(convertScaled(dealCredit, rate, rate?.den ?? 1n));
    const converted =
      rate === null
        ? ""
        : `${fxSummary(rate, dealCredit, convertScaled(dealCredit, rate, rate.den), rate.den)} credit; `;
    const value: SpiffLineExplanation = {
      summary: `SPIFF "${spiff.name}": ${converted}${payoutText(spiff, credit, rate)} = ${formatIn(amount, spiff.currency)}`,
      spiff_id: spiff.id,
      spiff_name: spiff.name,
      criteria_met: spiff.criteria.user_ids ? [...met, `user ${credit.user_id} is listed`] : met,
      payout: { ...spiff.payout },
      credit: creditText,
      percent: plain(parse(credit.percent)),
      period: line.period,
      unrounded: text(unroundedOf(spiff, credit, rate)),
      fx: rate === null ? undefined : fxExplanation(rate, dealCredit, creditText),
      amount: amountNumber(amount),
    };
    Object.defineProperty(line, "explanation", { value, enumerable: true, writable: true, configurable: true });
    return value;
  }
}

const LAZY_EXPLANATION: PropertyDescriptor = {
  get(this: SpiffLine) {
    return SpiffLine.explain(this);
  },
  enumerable: true,
  configurable: true,
};

/**
 * §4 SPIFFs: a line per qualifying SPIFF and credited user; no multiplier, minimum or cap. A deal in
 * another currency converts as §15 says (with its `fx_rates`); a SPIFF it meets but for a usable rate
 * adds its pair to `missing` (for the deal's `fx_missing`), once per pair.
 */
export function calculateSpiffLines(
  deal: DealInput,
  credits: Credit[],
  spiffs: SpiffInput[],
  periodForUser: (userId: string) => string,
  missing?: FxMissing[],
): SpiffLineResult[] {
  const lines: SpiffLineResult[] = [];
  for (const spiff of spiffs) {
    if (!qualifies(deal, spiff)) {
      if (missing && deal.currency !== spiff.currency) noteMissing(deal, spiff, credits, missing);
      continue;
    }
    const currency = deal.currency === spiff.currency ? null : currencyFor(deal, spiff);
    const rate = currency?.ok ? currency.rate : null;
    for (const credit of credits) {
      if (userListed(spiff, credit.user_id))
        lines.push(new SpiffLine(deal, spiff, credit, periodForUser(credit.user_id), rate));
    }
  }
  return lines;
}

function noteMissing(deal: DealInput, spiff: SpiffInput, credits: Credit[], missing: FxMissing[]): void {
  const currency = currencyFor(deal, spiff);
  if (currency.ok || currency.missing === undefined || !credits.some((c) => userListed(spiff, c.user_id))) return;
  if (checkSpiff(deal, spiff).missed.length !== 1) return; // the rate is not all it misses
  const pair = currency.missing;
  if (!missing.some((m) => m.from === pair.from && m.to === pair.to)) missing.push(pair);
}
