import { Card, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { TeamStatement } from "../../data/statements/queries";
import { money } from "../../lib/format";
import { totalsByCurrency } from "../../lib/money";
import { AnchorLink } from "../../ui/AnchorLink";
import { ErrorState, LoadingState } from "../../ui/states";
import { CountCard } from "./CountCard";
import { managerHomeQueries } from "./loader";
import { OverridesByReportCards } from "./OverridesByReport";

/** A statement's currency: its plan's (a person without a plan this period earns nothing in it). */
const currencyOf = (statement: TeamStatement) => statement.plans[0]?.currency;

/**
 * A manager's team at a glance: what the people they see earned in their current periods (each in their
 * own plan's month, quarter or year, as the Team page shows them; summed exactly per currency), their
 * overrides by report when they earn any, and what waits for them: their reports' open disputes and
 * pending deals.
 */
export function ManagerHome({ managerId }: { managerId: string }) {
  const q = managerHomeQueries();
  const team = useQuery({
    ...q.team,
    select: (rows) => rows.filter((row) => row.user.id !== managerId && row.user.active),
  });
  const disputes = useQuery(q.disputes);
  const pending = useQuery(q.pending);
  const all = [team, disputes, pending];
  const failed = all.find((q) => q.isError);
  if (failed) return <ErrorState error={failed.error} retry={() => void Promise.all(all.map((q) => q.refetch()))} />;
  if (!all.every((q) => q.data !== undefined)) return <LoadingState label="Loading your team" lines={3} />;

  const earned = team.data!.flatMap((statement) => {
    const currency = currencyOf(statement);
    return currency ? [{ currency, statement }] : [];
  });
  const sum = (pick: (s: TeamStatement) => number) =>
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
          Your team's current periods ({team.data!.length} {team.data!.length === 1 ? "person" : "people"})
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
      <OverridesByReportCards managerId={managerId} />
      <section aria-labelledby="team-waiting">
        <Title order={2} size="h3" id="team-waiting" mb="sm">
          What waits for you
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {waiting.map((w) => (
            <CountCard key={w.id} testId={`waiting-${w.id}`} label={w.label} count={w.count}>
              <Text size="sm">{w.link}</Text>
            </CountCard>
          ))}
        </SimpleGrid>
      </section>
    </Stack>
  );
}
