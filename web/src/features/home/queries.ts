import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";
import { currentPeriodLabel, lastPeriods, type PlanPeriod } from "../../lib/periods";
import { rememberedPeriodKinds } from "./period-hint";

export type Statement = Schemas["Statement"];
export type StatementPlan = Statement["plans"][number];
export type Deal = Schemas["Deal"];

/** One key factory for everything the home and statement pages read, so both share the cache. */
export const homeKeys = {
  all: ["home"] as const,
  person: (userId: string) => [...homeKeys.all, "person", userId] as const,
  statement: (userId: string, period: string) => [...homeKeys.person(userId), "statement", period] as const,
  recentDeals: (userId: string) => [...homeKeys.person(userId), "recent-deals"] as const,
};

/** A person's statement for one period ("2026-Q3", "2026-07", "2026"). */
export const statementQuery = (userId: string, period: string) =>
  queryOptions({
    queryKey: homeKeys.statement(userId, period),
    queryFn: async (): Promise<Statement> => {
      const statement = await unwrap(
        api.GET("/api/v1/users/{id}/statement", { params: { path: { id: userId }, query: { period } } }),
      );
      // The route also answers text/csv; asked for JSON (openapi-fetch's default), it answers JSON.
      if (typeof statement === "string") throw new Error("The statement came back as text, not JSON.");
      return statement;
    },
  });

/** The person (name, role): 404 when they are outside what the viewer sees. */
export const personQuery = (userId: string) =>
  queryOptions({
    queryKey: homeKeys.person(userId),
    queryFn: () => unwrap(api.GET("/api/v1/users/{id}", { params: { path: { id: userId } } })),
  });

export const RECENT_DEALS = 5;

/** The person's latest deals by close date (those they own), with each deal's commission. */
export const recentDealsQuery = (userId: string) =>
  queryOptions({
    queryKey: homeKeys.recentDeals(userId),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/deals", {
          params: { query: { owner_id: userId, sort: "-close_date", per_page: RECENT_DEALS } },
        }),
      ),
  });

// A person's plans may run by quarter, month or year: the current period of each kind is read, and
// those holding lines are shown (a statement for "2026-Q3" only holds lines of quarterly plans).
const PERIOD_KINDS: PlanPeriod[] = ["quarter", "month", "year"];

/** The statements a person's home opens with: this quarter's, this month's and this year's. */
export const currentStatementQueries = (userId: string) =>
  PERIOD_KINDS.map((kind) => statementQuery(userId, currentPeriodLabel(kind)));

/**
 * The earlier periods (the last four, this one included) of the kinds this person's home showed on the
 * last visit in this browser: asked for with the current ones, so the chart does not wait a round.
 */
export const rememberedEarlierStatementQueries = (userId: string) =>
  rememberedPeriodKinds(userId).flatMap((kind) =>
    lastPeriods(currentPeriodLabel(kind), 4)
      .slice(0, -1)
      .map((period) => statementQuery(userId, period)),
  );

/** Asks for what a home page reads while its code is still loading (the route's loader). */
export function prefetchHome(queryClient: QueryClient, userId: string): void {
  for (const query of currentStatementQueries(userId)) void queryClient.prefetchQuery(query);
  void queryClient.prefetchQuery(recentDealsQuery(userId));
  for (const query of rememberedEarlierStatementQueries(userId)) void queryClient.prefetchQuery(query);
}
