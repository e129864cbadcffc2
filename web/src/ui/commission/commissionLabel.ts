import type { Schemas } from "../../api/types";

type Role = Schemas["User"]["role"];

/**
 * What a deal's total_commission is to this reader (API.md §20 b): with scope "visible" it sums only the
 * lines they see — a rep's own ("Your commission"), a manager's team's ("Your team's commission") —
 * never the deal's total, which is what "Total commission" names.
 */
export function commissionLabel(scope: Schemas["Deal"]["total_commission_scope"], role: Role): string {
  if (scope === "deal") return "Total commission";
  return role === "manager" ? "Your team's commission" : "Your commission";
}
