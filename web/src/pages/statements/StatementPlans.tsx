import { Table } from "@mantine/core";
import type { Statement } from "../../data/statements/queries";
import { money, percent } from "../../lib/format";
import { ScrollTable } from "../../ui/ScrollTable";

/** Each plan of the period: quota, attainment and the band reached. */
export function StatementPlans({ statement }: { statement: Statement }) {
  if (statement.plans.length === 0) return null;
  return (
    <ScrollTable minWidth={480} label="Plans and attainment">
      <Table data-testid="statement-plans">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Plan</Table.Th>
            <Table.Th ta="right">Quota</Table.Th>
            <Table.Th ta="right">Attainment</Table.Th>
            <Table.Th ta="right">Of quota</Table.Th>
            <Table.Th ta="right">Rate reached</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {statement.plans.map((plan) => (
            <Table.Tr key={plan.plan_id} data-plan-id={plan.plan_id}>
              <Table.Td>{plan.plan_name}</Table.Td>
              <Table.Td ta="right">{plan.quota === null ? "—" : money(plan.quota, plan.currency)}</Table.Td>
              <Table.Td ta="right">{money(plan.attainment, plan.currency)}</Table.Td>
              <Table.Td ta="right">{plan.attainment_ratio === null ? "—" : percent(plan.attainment_ratio)}</Table.Td>
              <Table.Td ta="right">{plan.current_rate === null ? "—" : percent(plan.current_rate)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
