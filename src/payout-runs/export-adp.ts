import { AppError } from "../errors.js";
import { amountText, bonusOf, csvOf, difference, payeesInCurrency, plainRow } from "./export-csv.js";
import type { ExportPayoutRunQuery, PayoutRunDetail } from "./schema.js";

export const ADP_HEADER = ["Co Code", "Batch ID", "File #", "Earnings 3 Code", "Earnings 3 Amount"];

/**
 * ADP Workforce Now paydata: a row per payee with net_pay > 0 (File # = payroll_id), the bonus part on a
 * row of its own when `bonus_earnings_code` is given. A payee without a payroll_id → 422 naming each.
 */
export function adpCsv(run: PayoutRunDetail, q: ExportPayoutRunQuery): string {
  const paid = payeesInCurrency(run, q.currency).filter((p) => p.net_pay > 0);
  const missing = paid.filter((p) => p.payroll_id === null);
  if (missing.length > 0) {
    throw new AppError(
      "validation_error",
      `ADP needs a payroll_id (File #) for every payee; missing for ${missing.map((p) => p.user_id).join(", ")}`,
      missing.map((p) => ({ param: "payroll_id", message: `${p.user_id} (${p.name}) has no payroll_id` })),
    );
  }
  const rows = paid.flatMap((p) => {
    const row = (code: string, amount: number) =>
      plainRow([q.co_code!, q.batch_id!, p.payroll_id!, code, amountText(amount, p.currency)]);
    if (!q.bonus_earnings_code) return [row(q.earnings_code ?? "C", p.net_pay)];
    const bonus = bonusOf(p);
    const commission = difference(p.net_pay, bonus);
    return [
      ...(commission > 0 ? [row(q.earnings_code ?? "C", commission)] : []),
      ...(bonus > 0 ? [row(q.bonus_earnings_code, bonus)] : []),
    ];
  });
  return csvOf([ADP_HEADER, ...rows], false);
}
