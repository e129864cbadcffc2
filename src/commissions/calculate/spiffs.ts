import { amountNumber, Dec, formatMoney, formatPercent, plain, roundCents } from "./decimal.js";
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
    const arr = `arr_amount ${formatMoney(deal.arr_amount)}`;
    const ok = new Dec(deal.arr_amount).gte(minArr);
    check(result, ok, `${arr} ≥ ${formatMoney(minArr)}`, `${arr} below ${formatMoney(minArr)}`);
  }
  if (types !== null && types !== undefined) {
    const listed = `deal_type ${deal.deal_type}`;
    check(result, types.includes(deal.deal_type), `${listed} is listed`, `${listed} is not listed`);
  }
  return result;
}

function userListed(spiff: SpiffInput, userId: string): boolean {
  const users = spiff.criteria.user_ids;
  return users === null || users === undefined || users.includes(userId);
}

function payoutOf(spiff: SpiffInput, credit: Credit): { unrounded: Dec; text: string } {
  if (spiff.payout.type === "flat") {
    const unrounded = new Dec(spiff.payout.amount).times(credit.percent).dividedBy(100);
    return { unrounded, text: `flat ${formatMoney(spiff.payout.amount)} × ${plain(credit.percent)}% split` };
  }
  const unrounded = new Dec(credit.credit).times(spiff.payout.rate);
  return { unrounded, text: `${formatMoney(credit.credit)} × ${formatPercent(spiff.payout.rate)}` };
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
    amount: amount.toFixed(2),
    explanation: {
      summary: `SPIFF "${spiff.name}": ${text} = ${formatMoney(amount)}`,
      spiff_id: spiff.id,
      spiff_name: spiff.name,
      criteria_met: criteria,
      payout: { ...spiff.payout },
      credit: plain(credit.credit),
      percent: plain(credit.percent),
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
    const { met, missed } = checkSpiff(deal, spiff);
    if (missed.length > 0) continue;
    for (const credit of credits) {
      if (userListed(spiff, credit.user_id)) {
        lines.push(spiffLine(deal, spiff, credit, met, periodForUser(credit.user_id)));
      }
    }
  }
  return lines;
}
