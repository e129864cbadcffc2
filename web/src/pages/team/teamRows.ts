import type { SessionUser } from "../../data/auth/queries";
import type { TeamStatement } from "../../data/statements/queries";
import { kindOf, type PlanPeriod } from "../../lib/periods";

type PlanSummary = TeamStatement["plans"][number];

export interface TeamRow {
  user: TeamStatement["user"];
  managerName: string;
  /** The person's own period on the date picked ("2026-11", "2026-Q4", "2026"), as the API chose it. */
  period: string;
  /** The period's kind: their plan's (a person with no plan in force on the date: the calendar quarter). */
  periodKind: PlanPeriod;
  /** The person's plans in the period: attainment against quota, as the statement gives it. */
  plans: PlanSummary[];
  /** Earned in the period, in all and by status, summed by the API (never here). */
  total: number;
  earned: TeamStatement["by_status"];
  currency: string;
  /** Deals credited to the person in the period: the distinct deals of their plan lines (the API's count). */
  deals: number;
}

/**
 * One row per person below the viewer (the viewer's own row left out), with their manager's name: the
 * managers of the people a viewer sees are the viewer or people in the same list.
 */
export function teamRows(statements: TeamStatement[], viewer: Pick<SessionUser, "id" | "name">): TeamRow[] {
  const names = new Map([...statements.map((s) => [s.user.id, s.user.name] as const), [viewer.id, viewer.name]]);
  return statements
    .filter((s) => s.user.id !== viewer.id)
    .map((s) => ({
      user: s.user,
      managerName: s.user.manager_id ? (names.get(s.user.manager_id) ?? "—") : "—",
      period: s.period,
      periodKind: kindOf(s.period),
      plans: s.plans,
      total: s.totals.total,
      earned: s.by_status,
      // Spiff and adjustment lines follow the person's plan's currency; without a plan line, the default.
      currency: s.plans[0]?.currency ?? "USD",
      deals: s.deals,
    }));
}
