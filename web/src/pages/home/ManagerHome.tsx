import { Card, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQueries, useQuery } from "@tanstack/react-query";
import { type Statement, statementQuery } from "../../data/statements/queries";
import { money } from "../../lib/format";
import { totalsByCurrency } from "../../lib/money";
import { currentPeriodLabel } from "../../lib/periods";
import { AnchorLink } from "../../ui/AnchorLink";
import { ErrorState, LoadingState } from "../../ui/states";
import { managerHomeQueries } from "./loader";

/** A statement's currency: its plan's (a person without a plan this period earns nothing in it). */
const currencyOf = (statement: Statement) => statement.plans[0]?.currency;

/**
 * A manager's team at a glance: what the people they see earned this quarter (each by their statement,
 * summed exactly per currency), and what waits for them: their reports' open disputes and pending deals.
 */
export function ManagerHome({ managerId }: { managerId: string }) {
  const period = currentPeriodLabel("quarter");
  const q = managerHomeQueries();
  const team = useQuery({
    ...q.team,
    select: (users) => users.filter((u) => u.id !== managerId && u.active),
  });
  const statements = useQueries({
    queries: (team.data ?? []).map((user) => statementQuery(user.id, period)),
  });
  const disputes = useQuery(q.disputes);
  const pending = useQuery(q.pending);
  const all = [team, disputes, pending, ...statements];
  const failed = all.find((q) => q.isError);
  if (failed) return <ErrorState error={failed.error} retry={() => void Promise.all(all.map((q) => q.refetch()))} />;
  if (!all.every((q) => q.data !== undefined)) return <LoadingState label="Loading your team" lines={3} />;

  const earned = statements.flatMap((q) => {
    const statement = q.data!;
    const currency = currencyOf(statement);
    return currency ? [{ currency, statement }] : [];
  });
  const sum = (pick: (s: Statement) => number) =>
    totalsByCurrency(earned.map(({ currency, statement }) => ({ currency, amount: pick(statement) })));
  const rows = [
    { id: "total", label: "Earned", totals: sum((s) => s.totals.total) },
    { id: "pending", label: "Pending approval", totals: sum((s) => s.by_status.pending) },
    { id: "approved", label: "Approved, unpaid", totals: sum((s) => s.by_status.approved) },
    { id: "paid", label: "Paid", totals: sum((s) => s.by_status.paid) },
  ];
  const waiting = [
    {
      id: "disputes",
      label: "Open disputes of your team",
      count: disputes.data!.meta.total,
      link: <AnchorLink to="/disputes">See disputes</AnchorLink>,
    },
    {
      id: "pending-deals",
      label: "Your team's deals pending approval",
      count: pending.data!.meta.total,
      link: (
        <AnchorLink to="/deals" search={{ status: ["pending"] }}>
          See pending deals
        </AnchorLink>
      ),
    },
  ];
  return (
    <Stack gap="md" data-testid="manager-home">
      <section aria-labelledby="team-period">
        <Title order={2} size="h3" id="team-period" mb="sm">
          Your team in {period} ({team.data!.length} {team.data!.length === 1 ? "person" : "people"})
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          {rows.map((row) => (
            <Card withBorder key={row.id} data-testid={`team-${row.id}`}>
              <Text size="xs" c="gray.7">
                {row.label}
              </Text>
              <Text fw={700} fz="lg" data-testid="amount">
                {row.totals.length === 0 ? money(0) : row.totals.map(([c, t]) => money(t, c)).join(" · ")}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
        <Text size="sm" mt="xs">
          <AnchorLink to="/team">Each person on the Team page</AnchorLink>
        </Text>
      </section>
      <section aria-labelledby="team-waiting">
        <Title order={2} size="h3" id="team-waiting" mb="sm">
          What waits for you
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {waiting.map((w) => (
            <Card withBorder key={w.id} data-testid={`waiting-${w.id}`}>
              <Text size="sm" c="gray.7">
                {w.label}
              </Text>
              <Text fw={700} fz="xl" data-testid="count">
                {w.count}
              </Text>
              <Text size="sm">{w.link}</Text>
            </Card>
          ))}
        </SimpleGrid>
      </section>
    </Stack>
  );
}
