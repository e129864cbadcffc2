import {
  amountNumber,
  cents,
  cmp,
  divPow10,
  type Fixed,
  formatMoney,
  formatPercent,
  parse,
  plain,
  roundCents,
  times,
} from "./fixed.js";
import type { Credit, DealInput, SpiffInput, SpiffLineResult } from "./types.js";

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
    const arr = `arr_amount ${formatMoney(amount)}`;
    const ok = cmp(amount, minimum) >= 0;
    check(result, ok, `${arr} ≥ ${formatMoney(minimum)}`, `${arr} below ${formatMoney(minimum)}`);
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
  return minArr === null || minArr === undefined || cmp(parse(deal.arr_amount), parse(minArr)) >= 0;
}

function userListed(spiff: SpiffInput, userId: string): boolean {
  const users = spiff.criteria.user_ids;
  return users === null || users === undefined || users.includes(userId);
}

function payoutOf(spiff: SpiffInput, credit: Credit): { unrounded: Fixed; text: string } {
  if (spiff.payout.type === "flat") {
    const amount = parse(spiff.payout.amount);
    const unrounded = divPow10(times(amount, parse(credit.percent)), 2);
    return { unrounded, text: `flat ${formatMoney(amount)} × ${plain(parse(credit.percent))}% split` };
  }
  const share = parse(credit.credit);
  const rate = parse(spiff.payout.rate);
  return { unrounded: times(share, rate), text: `${formatMoney(share)} × ${formatPercent(rate)}` };
}

function spiffLine(deal: DealInput, spiff: SpiffInput, credit: Credit, met: string[], period: string): SpiffLineResult {
  const { unrounded, text } = payoutOf(spiff, credit);
  const amount = roundCents(unrounded);
  const criteria = spiff.criteria.user_ids ? [...met, `user ${credit.user_id} is listed`] : met;
  return {
    deal_id: deal.id,
    user_id: credit.user_id,
    spiff_id: spiff.id,
    period,
    kind: "spiff",
    amount: cents(amount),
    explanation: {
      summary: `SPIFF "${spiff.name}": ${text} = ${formatMoney(amount)}`,
      spiff_id: spiff.id,
      spiff_name: spiff.name,
      criteria_met: criteria,
      payout: { ...spiff.payout },
      credit: plain(parse(credit.credit)),
      percent: plain(parse(credit.percent)),
      period,
      unrounded: plain(unrounded),
      amount: amountNumber(amount),
    },
  };
}

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
    const { met } = checkSpiff(deal, spiff);
    for (const credit of credits) {
      if (userListed(spiff, credit.user_id)) {
        lines.push(spiffLine(deal, spiff, credit, met, periodForUser(credit.user_id)));
      }
    }
  }
  return lines;
}
