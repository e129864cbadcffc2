import type { Statement } from "../../data/statements/queries";
import type { User } from "../../data/users/queries";

type PlanSummary = Statement["plans"][number];

export interface TeamRow {
  user: User;
  managerName: string;
  /** The person's plans this period: attainment against quota, as the statement gives it. */
  plans: PlanSummary[];
  /** Earned this period by status, summed by the API (never here). */
  earned: Statement["by_status"];
  currency: string;
  /** Deals credited to the person this period: the distinct deals of their plan lines. */
  deals: number;
}

/** One row per person, joined with their manager's name and their statement for the period. */
export function teamRows(people: User[], everyone: User[], statements: Statement[], viewer: User): TeamRow[] {
  const names = new Map([...everyone, viewer].map((u) => [u.id, u.name]));
  return people.map((user, i) => {
    const statement = statements[i]!;
    const plans = statement.plans;
    return {
      user,
      managerName: user.manager_id ? (names.get(user.manager_id) ?? "—") : "—",
      plans,
      earned: statement.by_status,
      // Spiff and adjustment lines follow the person's plan's currency; without a plan line, the default.
      currency: plans[0]?.currency ?? "USD",
      deals: new Set(statement.lines.filter((l) => l.kind === "plan").map((l) => l.deal_id)).size,
    };
  });
}
