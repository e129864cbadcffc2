import { csvTextField } from "../commissions/index.js";
import { amountText, csvOf } from "./export-csv.js";
import type { PayoutRunDetail } from "./schema.js";

export const GENERIC_HEADER = [
  "run_id",
  "period_start",
  "period_end",
  "pay_date",
  "external_id",
  "payroll_id",
  "email",
  "name",
  "currency",
  "plan",
  "spiff",
  "override",
  "adjustment",
  "clawback",
  "draw_advance",
  "draw_recovery",
  "deficit_brought_forward",
  "deficit_carried_forward",
  "net_pay",
];

/** A row per payee (by name, user id, currency); text cells formula-safe as the commission CSV's, a BOM first. */
export function genericCsv(run: PayoutRunDetail): string {
  const rows = run.payees.map((p) => {
    const text = [run.id, run.period_start, run.period_end, run.pay_date, p.external_id ?? "", p.payroll_id ?? ""];
    const money = [
      p.gross.plan,
      p.gross.spiff,
      p.gross.override,
      p.gross.adjustment,
      p.gross.clawback,
      p.gross.draw_advance,
      p.gross.draw_recovery,
      p.deficit_brought_forward,
      p.deficit_carried_forward,
      p.net_pay,
    ].map((v) => amountText(v, p.currency));
    return [...[...text, p.email, p.name, p.currency].map(csvTextField), ...money];
  });
  return csvOf([GENERIC_HEADER, ...rows], true);
}
