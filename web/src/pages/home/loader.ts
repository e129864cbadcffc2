import type { QueryClient } from "@tanstack/react-query";
import { dealsQuery } from "../../data/deals/queries";
import { periodsQuery, statementQuery } from "../../data/statements/queries";
import { currentPeriodLabel, lastPeriods, type PlanPeriod } from "../../lib/periods";
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

/** Asks for what a home page reads while its code is still loading (the route's loader). */
export function prefetchHome(client: QueryClient, userId: string): void {
  for (const query of currentStatements(userId)) void client.prefetchQuery(query);
  void client.prefetchQuery(recentDeals(userId));
  void client.prefetchQuery(periodsQuery(userId));
  for (const query of rememberedEarlierStatements(userId)) void client.prefetchQuery(query);
}
