import { Table } from "@mantine/core";
import type { Schemas } from "../../../api/client";
import { money } from "../../../lib/format";
import { ScrollTable } from "../../../ui/ScrollTable";

type Commission = Schemas["Commission"];

const KIND_LABELS = { plan: "Plan", spiff: "SPIFF", adjustment: "Adjustment" } as const;

/** A deal's current lines, compact: what the resolution is weighed against. */
export function DealLines({
  lines,
  currency,
  nameOf,
}: {
  lines: Commission[];
  currency: string;
  nameOf: (id: string) => string;
}) {
  return (
    <ScrollTable minWidth={520} label="The deal's commission lines">
      <Table fz="sm" aria-label="The deal's commission lines" data-testid="deal-lines">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Person</Table.Th>
            <Table.Th>Period</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line) => (
            <Table.Tr key={line.id} data-testid="deal-line">
              <Table.Td>{KIND_LABELS[line.kind]}</Table.Td>
              <Table.Td>{nameOf(line.user_id)}</Table.Td>
              <Table.Td>{line.period}</Table.Td>
              <Table.Td>{line.status}</Table.Td>
              <Table.Td ta="right" data-testid="deal-line-amount">
                {money(line.amount, currency)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
