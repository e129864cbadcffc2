import { Stack } from "@mantine/core";
import { useQueries, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { periodsQuery, statementQuery } from "../../data/statements/queries";
import { kindOf, lastPeriods, type PlanPeriod } from "../../lib/periods";
import { rememberPeriodKinds } from "../../lib/remembered";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { EarlierPeriods } from "./EarlierPeriods";
import { currentStatements, recentDeals } from "./loader";
import { PayoutBalance } from "./PayoutBalance";
import { PeriodSection } from "./PeriodSection";
import { RecentDeals } from "./RecentDeals";

/**
 * A person's home: the current period of each of their plans, what is still in flight (or was paid)
 * from their other periods, and their recent deals. Read-only.
 * `name`: whose home it is when not the viewer's own (a manager's read-only view).
 */
export function PersonHome({ userId, name }: { userId: string; name?: string }) {
  const results = useQueries({ queries: currentStatements(userId) });
  // What the sections below read too (same keys: one request each), so the page knows when all of it
  // is on screen, and the earlier periods are asked for as soon as the current ones are known.
  const shown = results.filter((r) => r.data && (r.data.plans.length > 0 || r.data.lines.length > 0));
  const earlier = useQueries({
    queries: shown.flatMap((r) => lastPeriods(r.data!.period, 4).map((p) => statementQuery(userId, p))),
  });
  const periods = useQuery(periodsQuery(userId));
  const recent = useQuery(recentDeals(userId));
  const allKnown = results.every((r) => r.data);
  const shownKinds = shown.map((r) => kindOf(r.data!.period)).join(",");
  useEffect(() => {
    if (allKnown) rememberPeriodKinds(userId, shownKinds ? (shownKinds.split(",") as PlanPeriod[]) : []);
  }, [allKnown, userId, shownKinds]);
  useRenderedMark(allKnown && earlier.every((r) => r.data) && periods.data !== undefined && recent.data !== undefined);
  const failed = results.find((r) => r.error);
  let current: React.ReactNode;
  if (failed) current = <ErrorState error={failed.error} retry={() => void failed.refetch()} />;
  else if (results.some((r) => !r.data)) current = <LoadingState label="Loading this period" />;
  else {
    const statements = results.map((r) => r.data!).filter((s) => s.plans.length > 0 || s.lines.length > 0);
    // No statement has a plan (the API's `plans` is empty for every current period) nor a line: no plan
    // is in force, which nothing the person does will change; an admin assigns one.
    const period = results.map((r) => r.data!.period).find((p) => kindOf(p) === "quarter") ?? results[0]?.data?.period;
    current =
      statements.length === 0 ? (
        <EmptyState title={`${name ? `${name} has` : "You have"} no plan in force for ${period}`}>
          {name
            ? "Commissions appear here once an admin assigns them a plan and their deals close under it."
            : "Ask your admin to assign you a plan: commissions appear here once your deals close under it."}
        </EmptyState>
      ) : (
        statements.map((s) => <PeriodSection key={s.period} userId={userId} statement={s} />)
      );
  }
  const currency = shown.map((r) => r.data!.plans[0]?.currency).find(Boolean) ?? "USD";
  return (
    <Stack gap="xl">
      <PayoutBalance userId={userId} name={name} />
      {current}
      {periods.error ? (
        <ErrorState error={periods.error} retry={() => void periods.refetch()} />
      ) : !periods.data ? (
        <LoadingState label="Loading your other periods" lines={2} />
      ) : (
        // Once the current periods are known: those shown above are not repeated.
        allKnown && (
          <EarlierPeriods
            userId={userId}
            periods={periods.data}
            shown={shown.map((r) => r.data!.period)}
            currency={currency}
          />
        )
      )}
      <RecentDeals userId={userId} />
    </Stack>
  );
}
