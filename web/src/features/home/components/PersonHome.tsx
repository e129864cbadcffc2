import { Stack } from "@mantine/core";
import { useQueries } from "@tanstack/react-query";
import { currentPeriodLabel, type PlanPeriod } from "../../../lib/periods";
import { EmptyState, ErrorState, LoadingState } from "../../../ui/states";
import { statementQuery } from "../queries";
import { PeriodSection } from "./PeriodSection";
import { RecentDeals } from "./RecentDeals";

// A person's plans may run by quarter, month or year: the current period of each kind is read, and
// those holding lines are shown (a statement for "2026-Q3" only holds lines of quarterly plans).
const KINDS: PlanPeriod[] = ["quarter", "month", "year"];

/** A person's home: the current period of each of their plans, and their recent deals. Read-only. */
export function PersonHome({ userId }: { userId: string }) {
  const results = useQueries({ queries: KINDS.map((kind) => statementQuery(userId, currentPeriodLabel(kind))) });
  const failed = results.find((r) => r.error);
  let current: React.ReactNode;
  if (failed) current = <ErrorState error={failed.error} retry={() => void failed.refetch()} />;
  else if (results.some((r) => !r.data)) current = <LoadingState label="Loading this period" />;
  else {
    const statements = results.map((r) => r.data!).filter((s) => s.plans.length > 0 || s.lines.length > 0);
    current =
      statements.length === 0 ? (
        <EmptyState title="Nothing earned this period yet">
          Commissions appear here once a deal closes under one of the plans.
        </EmptyState>
      ) : (
        statements.map((s) => <PeriodSection key={s.period} userId={userId} statement={s} />)
      );
  }
  return (
    <Stack gap="xl">
      {current}
      <RecentDeals userId={userId} />
    </Stack>
  );
}
