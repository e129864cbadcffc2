import { amountText, bonusOf, csvOf, difference, payeesInCurrency, plainRow } from "./export-csv.js";
import type { ExportPayoutRunQuery, PayoutRunDetail } from "./schema.js";

export const GUSTO_HEADER = ["first_name", "last_name", "gusto_employee_id", "commission", "bonus"];

/**
 * Gusto's bonus and commission import: a row per payee with net_pay > 0, the name split at its first
 * space, gusto_employee_id = payroll_id (empty: Gusto matches names); bonus = min(max(spiff, 0), net_pay).
 */
export function gustoCsv(run: PayoutRunDetail, q: ExportPayoutRunQuery): string {
  const rows = payeesInCurrency(run, q.currency)
    .filter((p) => p.net_pay > 0)
    .map((p) => {
      const space = p.name.indexOf(" ");
      const [first, last] = space < 0 ? [p.name, ""] : [p.name.slice(0, space), p.name.slice(space + 1)];
      const bonus = bonusOf(p);
      const commission = difference(p.net_pay, bonus);
      return plainRow([
        first,
        last,
        p.payroll_id ?? "",
        amountText(commission, p.currency),
        amountText(bonus, p.currency),
      ]);
    });
  return csvOf([GUSTO_HEADER, ...rows], false);
}
