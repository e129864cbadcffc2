import { Card, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { allPayoutGroupsQuery, type PayoutGroup } from "../../data/payouts/queries";
import { money } from "../../lib/format";
import { sumMoney, totalsByCurrency } from "../../lib/money";
import { ButtonLink } from "../../ui/AnchorLink";
import { type Column, RecordTable } from "../../ui/DataTable";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";

interface Owed {
  period: string;
  currency: string;
  total: number;
  people: number;
  lines: number;
}

/** The payout groups summed exactly by period and currency, latest period first. */
export function owedByPeriod(groups: readonly PayoutGroup[]): Owed[] {
  const byKey = new Map<string, PayoutGroup[]>();
  for (const group of groups) {
    const key = `${group.period} ${group.currency}`;
    byKey.set(key, [...(byKey.get(key) ?? []), group]);
  }
  return [...byKey.values()]
    .map((list) => ({
      period: list[0]!.period,
      currency: list[0]!.currency,
      total: sumMoney(list.map((g) => g.total)),
      people: new Set(list.map((g) => g.user_id)).size,
      lines: list.reduce((sum, g) => sum + g.line_count, 0),
    }))
    .sort((a, b) => b.period.localeCompare(a.period) || a.currency.localeCompare(b.currency));
}

const columns: Column<Owed>[] = [
  { header: "Period", rowHeader: true, cell: (o) => o.period },
  { header: "Currency", cell: (o) => o.currency },
  { header: "People", numeric: true, cell: (o) => o.people },
  { header: "Lines", numeric: true, visibleFrom: "sm", cell: (o) => o.lines },
  {
    header: "Owed",
    id: "owed",
    numeric: true,
    props: () => ({ fw: 600, style: { whiteSpace: "nowrap" } }),
    cell: (o) => money(o.total, o.currency),
  },
];

/** Finance's home: what is approved and not yet paid (GET /payouts), by period and currency, and where to pay it. */
export function FinanceHome() {
  const groups = useQuery(allPayoutGroupsQuery());
  useRenderedMark(groups.data !== undefined);
  if (groups.isPending) return <LoadingState label="Loading what is owed" lines={4} />;
  if (groups.isError) return <ErrorState error={groups.error} retry={() => void groups.refetch()} />;
  if (groups.data.length === 0) {
    return (
      <EmptyState title="Nothing is owed">
        Approved commissions not yet paid appear here, by period and currency.
      </EmptyState>
    );
  }
  const rows = owedByPeriod(groups.data);
  // Never one sum across currencies: a grand total per currency.
  const grand = totalsByCurrency(groups.data.map((g) => ({ currency: g.currency, amount: g.total })));
  return (
    <Stack gap="lg">
      <section aria-labelledby="owed-total">
        <Title order={2} size="h3" id="owed-total" mb="sm">
          Owed now
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          {grand.map(([currency, total]) => (
            <Card withBorder key={currency} data-testid="owed-grand-total" data-currency={currency}>
              <Text size="xs" c="gray.7">
                Approved, not yet paid ({currency})
              </Text>
              <Text fw={700} fz="xl" data-testid="amount">
                {money(total, currency)}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
        <Group mt="sm">
          <ButtonLink to="/payouts" data-testid="go-pay">
            Pay in Payouts
          </ButtonLink>
        </Group>
      </section>
      <section aria-labelledby="owed-by-period">
        <Title order={2} size="h3" id="owed-by-period" mb="sm">
          Owed by period
        </Title>
        <RecordTable
          label="Owed by period and currency"
          testId="owed-by-period"
          minWidth={0}
          table={{ striped: true }}
          columns={columns}
          rows={rows}
          rowKey={(o) => `${o.period} ${o.currency}`}
          rowProps={(o) => ({ "data-period": o.period, "data-currency": o.currency })}
          caption={
            <Table.Caption>
              Everything approved and not yet paid is ready to pay; totals are per currency.
            </Table.Caption>
          }
        />
      </section>
    </Stack>
  );
}
