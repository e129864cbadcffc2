import { Group, Paper, SimpleGrid, Text } from "@mantine/core";
import type { Statement } from "../../data/statements/queries";
import { money } from "../../lib/format";

/** Earned so far in the period, and how much of it is pending, approved and paid. */
export function EarnedByStatus({ statement, currency }: { statement: Statement; currency: string }) {
  const figures = [
    { key: "total", label: "Earned so far", amount: statement.totals.total },
    { key: "pending", label: "Pending", amount: statement.by_status.pending },
    { key: "approved", label: "Approved", amount: statement.by_status.approved },
    { key: "paid", label: "Paid", amount: statement.by_status.paid },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
      {figures.map((f) => (
        <Paper key={f.key} withBorder p="sm" data-testid={`earned-${f.key}`}>
          <Group gap={4} wrap="nowrap" justify="space-between">
            <Text size="xs" c="dimmed">
              {f.label}
            </Text>
          </Group>
          <Text fw={700} data-testid="amount">
            {money(f.amount, currency)}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
