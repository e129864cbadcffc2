import { SimpleGrid, Table, Title } from "@mantine/core";
import type { Statement } from "../../data/statements/queries";
import { money } from "../../lib/format";

/**
 * The statement's totals by kind and by status in its currency, as the API summed them; with lines in
 * several currencies, one total per currency too (API.md §15: never one sum across them).
 */
export function StatementTotals({ statement }: { statement: Statement }) {
  const { currency } = statement;
  const byKind = [
    ["plan", "Plan", statement.totals.plan],
    ["spiff", "SPIFF", statement.totals.spiff],
    ["override", "Overrides", statement.totals.override],
    ["adjustment", "Adjustments", statement.totals.adjustment],
    ["clawback", "Clawbacks", statement.totals.clawback],
    // A draw's advances and recoveries (API.md §18) count in the total: their row shows when there are any.
    ...(statement.totals.draw === 0 ? [] : ([["draw", "Draw", statement.totals.draw]] as const)),
    ["total", "Total", statement.totals.total],
  ] as const;
  const byStatus = [
    ["pending", "Pending", statement.by_status.pending],
    ["approved", "Approved", statement.by_status.approved],
    ["paid", "Paid", statement.by_status.paid],
  ] as const;
  const several = statement.totals_by_currency.length > 1;
  return (
    <SimpleGrid cols={{ base: 1, sm: several ? 3 : 2 }} spacing="lg">
      <AmountTable title={`Totals by kind (${currency})`} rows={byKind} currency={currency} testId="totals-by-kind" />
      <AmountTable
        title={`Totals by status (${currency})`}
        rows={byStatus}
        currency={currency}
        testId="totals-by-status"
      />
      {several && <CurrencyTotals totals={statement.totals_by_currency} />}
    </SimpleGrid>
  );
}

/** One total per currency the period's lines are in. */
function CurrencyTotals({ totals }: { totals: Statement["totals_by_currency"] }) {
  return (
    <div>
      <Title order={3} size="h5" mb="xs">
        Total per currency
      </Title>
      <Table data-testid="totals-by-currency">
        <Table.Tbody>
          {totals.map((t) => (
            <Table.Tr key={t.currency} data-key={t.currency}>
              <Table.Th scope="row">{t.currency}</Table.Th>
              <Table.Td ta="right" data-testid="amount">
                {money(t.total, t.currency)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}

function AmountTable(props: {
  title: string;
  rows: readonly (readonly [string, string, number])[];
  currency: string;
  testId: string;
}) {
  return (
    <div>
      <Title order={3} size="h5" mb="xs">
        {props.title}
      </Title>
      <Table data-testid={props.testId}>
        <Table.Tbody>
          {props.rows.map(([key, label, amount]) => (
            <Table.Tr key={key} data-key={key} fw={key === "total" ? 700 : undefined}>
              <Table.Th scope="row">{label}</Table.Th>
              <Table.Td ta="right" data-testid="amount">
                {money(amount, props.currency)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
