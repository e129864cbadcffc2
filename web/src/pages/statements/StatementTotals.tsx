import { SimpleGrid, Table, Title } from "@mantine/core";
import type { Statement } from "../../data/statements/queries";
import { money } from "../../lib/format";

/** The statement's totals by kind and by status, as the API summed them. */
export function StatementTotals({ statement, currency }: { statement: Statement; currency: string }) {
  const byKind = [
    ["plan", "Plan", statement.totals.plan],
    ["spiff", "SPIFF", statement.totals.spiff],
    ["override", "Overrides", statement.totals.override],
    ["adjustment", "Adjustments", statement.totals.adjustment],
    ["clawback", "Clawbacks", statement.totals.clawback],
    ["total", "Total", statement.totals.total],
  ] as const;
  const byStatus = [
    ["pending", "Pending", statement.by_status.pending],
    ["approved", "Approved", statement.by_status.approved],
    ["paid", "Paid", statement.by_status.paid],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
      <AmountTable title="Totals by kind" rows={byKind} currency={currency} testId="totals-by-kind" />
      <AmountTable title="Totals by status" rows={byStatus} currency={currency} testId="totals-by-status" />
    </SimpleGrid>
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
