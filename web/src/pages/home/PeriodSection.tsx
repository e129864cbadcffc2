import { Group, Stack, Title } from "@mantine/core";
import { useQueries } from "@tanstack/react-query";
import { type Statement, statementQuery } from "../../data/statements/queries";
import { lastPeriods } from "../../lib/periods";
import { AnchorLink } from "../../ui/AnchorLink";
import { ErrorState, LoadingState } from "../../ui/states";
import { EarnedByStatus } from "./EarnedByStatus";
import { EarningsChart } from "./EarningsChart";
import { PlanProgress } from "./PlanProgress";

/** The current period of a person's plans: what they earned, where they stand on each plan, the trend. */
export function PeriodSection({ userId, statement }: { userId: string; statement: Statement }) {
  const currency = statement.plans[0]?.currency ?? "USD";
  return (
    <Stack gap="md" component="section" aria-labelledby={`period-${statement.period}`}>
      <Group justify="space-between" wrap="wrap">
        <Title order={3} id={`period-${statement.period}`}>
          {statement.period}
        </Title>
        <AnchorLink to="/statements/$period" params={{ period: statement.period }} search={{ user: userId }}>
          Statement for {statement.period}
        </AnchorLink>
      </Group>
      <EarnedByStatus statement={statement} currency={currency} />
      {statement.plans.map((plan) => (
        <PlanProgress key={plan.plan_id} plan={plan} />
      ))}
      <Title order={4} size="h5">
        Earnings, last four periods
      </Title>
      <LastPeriods userId={userId} period={statement.period} currency={currency} />
    </Stack>
  );
}

function LastPeriods({ userId, period, currency }: { userId: string; period: string; currency: string }) {
  const periods = lastPeriods(period, 4);
  const results = useQueries({ queries: periods.map((p) => statementQuery(userId, p)) });
  const failed = results.find((r) => r.error);
  if (failed) return <ErrorState error={failed.error} retry={() => void failed.refetch()} />;
  if (results.some((r) => !r.data)) return <LoadingState label="Loading earlier periods" lines={2} />;
  const data = results.map((r, i) => ({ period: periods[i]!, total: r.data!.totals.total }));
  return <EarningsChart periods={data} currency={currency} />;
}
