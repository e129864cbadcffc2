import { selectionTotal } from "../../ui/BulkBar";

/**
 * "Approve 12 deals, $4,310.00 commission? Approving locks their lines.": the count (one deal is named)
 * and the exact total of the commissions the API computed, one sum per currency.
 */
export function approvalQuestion(
  deals: readonly { opportunity_name: string; commission_totals: { currency: string; amount: number }[] }[],
): string {
  const one = deals.length === 1;
  const what = one ? deals[0]!.opportunity_name : `${deals.length} deals`;
  return `Approve ${what}, ${selectionTotal(deals)} commission? Approving locks ${one ? "its" : "their"} lines.`;
}
