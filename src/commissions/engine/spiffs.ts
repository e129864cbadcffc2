import {
  amountNumber,
  cmp,
  compareTexts,
  divPow10,
  type Fixed,
  fixedText,
  formatIn,
  formatPercent,
  minorUnits,
  parse,
  plain,
  roundTo,
  times,
} from "../../money/index.js";
import type { Credit, DealInput, SpiffInput, SpiffLineExplanation, SpiffLineResult } from "./types.js";

/** Which of a SPIFF's deal-level conditions a deal meets and misses (user_ids are checked per user). */
export interface SpiffCheck {
  met: string[];
  missed: string[];
}

function check(result: SpiffCheck, ok: boolean, met: string, missed: string): void {
  if (ok) result.met.push(met);
  else result.missed.push(missed);
}

export function checkSpiff(deal: DealInput, spiff: SpiffInput): SpiffCheck {
  const result: SpiffCheck = { met: [], missed: [] };
  const { min_arr_amount: minArr, deal_types: types } = spiff.criteria;
  check(result, spiff.active, "SPIFF active", "SPIFF inactive");
  check(
    result,
    deal.currency === spiff.currency,
    `currency ${deal.currency}`,
    `currency ${deal.currency} is not ${spiff.currency}`,
  );
  const window = `${spiff.starts_on} to ${spiff.ends_on}`;
  const inWindow = spiff.starts_on <= deal.close_date && deal.close_date <= spiff.ends_on;
  check(
    result,
    inWindow,
    `close_date ${deal.close_date} within ${window}`,
    `close_date ${deal.close_date} outside ${window}`,
  );
  if (minArr !== null && minArr !== undefined) {
    const amount = parse(deal.arr_amount);
    const minimum = parse(minArr);
    const arr = `arr_amount ${formatIn(amount, deal.currency)}`;
    const ok = cmp(amount, minimum) >= 0;
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
  if (!spiff.active || deal.currency !== spiff.currency) return false;
  if (!(spiff.starts_on <= deal.close_date && deal.close_date <= spiff.ends_on)) return false;
  if (types !== null && types !== undefined && !types.includes(deal.deal_type)) return false;
  return minArr === null || minArr === undefined || compareTexts(deal.arr_amount, minArr) >= 0;
}

function userListed(spiff: SpiffInput, userId: string): boolean {
  const users = spiff.criteria.user_ids;
  return users === null || users === undefined || users.includes(userId);
}

function unroundedOf(spiff: SpiffInput, credit: Credit): Fixed {
  if (spiff.payout.type === "flat") return divPow10(times(parse(spiff.payout.amount), parse(credit.percent)), 2);
  return times(parse(credit.credit), parse(spiff.payout.rate));
}

function payoutText(spiff: SpiffInput, credit: Credit): string {
  if (spiff.payout.type === "flat") {
    return `flat ${formatIn(parse(spiff.payout.amount), spiff.currency)} × ${plain(parse(credit.percent))}% split`;
  }
  return `${formatIn(parse(credit.credit), spiff.currency)} × ${formatPercent(parse(spiff.payout.rate))}`;
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
  declare readonly explanation: SpiffLineExplanation;
  readonly #deal: DealInput;
  readonly #spiff: SpiffInput;
  readonly #credit: Credit;
  readonly #rounded: Fixed;

  constructor(deal: DealInput, spiff: SpiffInput, credit: Credit, period: string) {
    this.deal_id = deal.id;
    this.user_id = credit.user_id;
    this.spiff_id = spiff.id;
    this.period = period;
    // A SPIFF line is in the SPIFF's currency and rounds to its minor unit (API.md §15).
    const places = minorUnits(spiff.currency);
    this.#rounded = roundTo(unroundedOf(spiff, credit), places);
    this.amount = fixedText(this.#rounded, places);
    this.#deal = deal;
    this.#spiff = spiff;
    this.#credit = credit;
    Object.defineProperty(this, "explanation", LAZY_EXPLANATION);
  }

  static explain(line: SpiffLine): SpiffLineExplanation {
    const spiff = line.#spiff;
    const credit = line.#credit;
    const amount = line.#rounded;
    const { met } = checkSpiff(line.#deal, spiff);
    const value: SpiffLineExplanation = {
      summary: `SPIFF "${spiff.name}": ${payoutText(spiff, credit)} = ${formatIn(amount, spiff.currency)}`,
      spiff_id: spiff.id,
      spiff_name: spiff.name,
      criteria_met: spiff.criteria.user_ids ? [...met, `user ${credit.user_id} is listed`] : met,
      payout: { ...spiff.payout },
      credit: plain(parse(credit.credit)),
      percent: plain(parse(credit.percent)),
      period: line.period,
      unrounded: plain(unroundedOf(spiff, credit)),
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

/** §4 SPIFFs: a line per qualifying SPIFF and credited user; no multiplier, minimum or cap. */
export function calculateSpiffLines(
  deal: DealInput,
  credits: Credit[],
  spiffs: SpiffInput[],
  periodForUser: (userId: string) => string,
): SpiffLineResult[] {
  const lines: SpiffLineResult[] = [];
  for (const spiff of spiffs) {
    if (!qualifies(deal, spiff)) continue;
    for (const credit of credits) {
      if (userListed(spiff, credit.user_id))
        lines.push(new SpiffLine(deal, spiff, credit, periodForUser(credit.user_id)));
    }
  }
  return lines;
}
