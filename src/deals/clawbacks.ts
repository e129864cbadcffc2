import type { ClawbackDealInput } from "../commissions/index.js";
import { AppError, validationError } from "../errors.js";
import { checkMinorUnits } from "../http/commission-fields.js";
import { cmp, formatIn, minus, parse } from "../money/index.js";
import type { DealRecord } from "./repository.js";

// What the cancellation, the refund and their preview share (API.md §14): the checks, in the order every
// client sees them (a 422 about the body before a 409 about the deal's status), and the deal as the
// clawback computation takes it.

export const CLAWBACK_STATUSES: ReadonlySet<string> = new Set(["approved", "paid"]);

export function clawbackDeal(d: DealRecord): ClawbackDealInput {
  return {
    id: d.id,
    currency: d.currency,
    close_date: d.close_date,
    arr_amount: d.arr_amount,
    contract_start: d.contract_start,
    contract_end: d.contract_end,
  };
}

/** effective_date ≥ close_date (422). */
export function checkEffectiveDate(deal: DealRecord, effectiveDate: string): void {
  if (effectiveDate < deal.close_date) {
    throw validationError("effective_date", `must be on or after the deal's close_date (${deal.close_date})`);
  }
}

/** Σ refunds ≤ arr_amount (422 saying what is left). */
export function checkRefundable(deal: DealRecord, amount: string): void {
  checkMinorUnits(deal.currency, { amount });
  const left = minus(parse(deal.arr_amount), parse(deal.refunded_amount));
  if (cmp(parse(amount), left) > 0) {
    throw validationError(
      "amount",
      `exceeds what is left to refund: ${formatIn(left, deal.currency)} ${deal.currency} of the deal's arr_amount ` +
        `${formatIn(parse(deal.arr_amount), deal.currency)} (${formatIn(parse(deal.refunded_amount), deal.currency)} refunded so far)`,
    );
  }
}

/** Only approved and paid deals are cancelled; the message says what to do instead. */
export function cancelRefused(deal: DealRecord): AppError | null {
  if (CLAWBACK_STATUSES.has(deal.status)) return null;
  const instead =
    deal.status === "pending"
      ? "; reject it instead (POST /deals/{id}/reject)"
      : deal.status === "disputed"
        ? "; resolve the dispute first (POST /disputes/{id}/resolve)"
        : "";
  return new AppError(
    "invalid_transition",
    `Deal ${deal.id} is ${deal.status}; only approved and paid deals can be cancelled${instead}`,
  );
}

/** Only approved and paid deals take a refund. */
export function refundRefused(deal: DealRecord): AppError | null {
  if (CLAWBACK_STATUSES.has(deal.status)) return null;
  const instead = deal.status === "disputed" ? "; resolve the dispute first (POST /disputes/{id}/resolve)" : "";
  return new AppError(
    "invalid_transition",
    `Deal ${deal.id} is ${deal.status}; only approved and paid deals can be refunded${instead}`,
  );
}
