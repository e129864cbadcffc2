import type { QueryClient } from "@tanstack/react-query";
import { apiKeysQuery } from "../../data/api-keys/queries";
import type { Role } from "../../data/auth/queries";
import { allAssignmentsQuery, plansQuery } from "../../data/comp-plans/queries";
import { dealsQuery } from "../../data/deals/queries";
import { disputesQuery } from "../../data/disputes/queries";
import { allPayoutGroupsQuery, payoutsQuery } from "../../data/payouts/queries";
import { periodsQuery, statementQuery, teamOnQuery } from "../../data/statements/queries";
import { usersQuery } from "../../data/users/queries";
import { currentPeriodLabel, lastPeriods, type PlanPeriod, today } from "../../lib/periods";
import { rememberedPeriodKinds } from "../../lib/remembered";

export const RECENT_DEALS = 5;

/** The person's latest deals by close date (those they own), with each deal's commission. */
export const recentDeals = (userId: string) =>
  dealsQuery({ owner_id: userId, sort: "-close_date", per_page: RECENT_DEALS });

// A person's plans may run by quarter, month or year: the current period of each kind is read, and
// those holding lines are shown (a statement for "2026-Q3" only holds lines of quarterly plans).
const PERIOD_KINDS: PlanPeriod[] = ["quarter", "month", "year"];

/** The statements a person's home opens with: this quarter's, this month's and this year's. */
export const currentStatements = (userId: string) =>
  PERIOD_KINDS.map((kind) => statementQuery(userId, currentPeriodLabel(kind)));

/**
 * The earlier periods (the last four, this one included) of the kinds this person's home showed on the
 * last visit in this browser: asked for with the current ones, so the chart does not wait a round.
 */
const rememberedEarlierStatements = (userId: string) =>
  rememberedPeriodKinds(userId).flatMap((kind) =>
    lastPeriods(currentPeriodLabel(kind), 4)
      .slice(0, -1)
      .map((period) => statementQuery(userId, period)),
  );

// Counts come from each list's meta.total, one record a page (API.md §2).
const ONE = { page: 1, per_page: 1 } as const;

/** What an admin's home reads: the setup checklist's counts, then the task inbox's. */
export const adminHomeQueries = () => ({
  plans: plansQuery(ONE),
  reps: usersQuery({ ...ONE, role: "rep" }),
  // Every plan's assignments in one count (GET /plan-assignments), not a request per plan.
  assignments: allAssignmentsQuery(ONE),
  deals: dealsQuery(ONE),
  apiKeys: apiKeysQuery(ONE),
  pending: dealsQuery({ ...ONE, status: ["pending"] }),
  disputes: disputesQuery({ ...ONE, status: ["open"] }),
  payouts: payoutsQuery(ONE),
});

/** What a manager's team section reads: everyone they see in their own current plan period, and what waits. */
export const managerHomeQueries = () => ({
  team: teamOnQuery(today()),
  disputes: disputesQuery({ ...ONE, status: ["open"] }),
  pending: dealsQuery({ ...ONE, status: ["pending"] }),
});

/** Asks for what a person's own commissions read while the page's code is still loading (a loader). */
export function prefetchPersonHome(client: QueryClient, userId: string): void {
  for (const query of currentStatements(userId)) void client.prefetchQuery(query);
  void client.prefetchQuery(recentDeals(userId));
  void client.prefetchQuery(periodsQuery(userId));
  for (const query of rememberedEarlierStatements(userId)) void client.prefetchQuery(query);
}

/**
 * The home route's loader: what the signed-in person's home reads, by role — finance's what is owed, an
 * admin's checklist and inbox (neither shows their own commissions), a manager's team and their own, a
 * rep's own.
 */
export function prefetchHome(client: QueryClient, user: { id: string; role: Role }): void {
  // One call per query: their result types differ.
  if (user.role === "finance") {
    void client.prefetchQuery(allPayoutGroupsQuery());
  } else if (user.role === "admin") {
    const q = adminHomeQueries();
    void client.prefetchQuery(q.plans);
    void client.prefetchQuery(q.reps);
    void client.prefetchQuery(q.assignments);
    void client.prefetchQuery(q.deals);
    void client.prefetchQuery(q.apiKeys);
    void client.prefetchQuery(q.pending);
    void client.prefetchQuery(q.disputes);
    void client.prefetchQuery(q.payouts);
  } else {
    if (user.role === "manager") {
      const q = managerHomeQueries();
      void client.prefetchQuery(q.team);
      void client.prefetchQuery(q.disputes);
      void client.prefetchQuery(q.pending);
    }
    prefetchPersonHome(client, user.id);
  }
}
