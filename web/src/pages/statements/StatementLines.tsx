import { Badge, Table } from "@mantine/core";
import type { Statement } from "../../data/statements/queries";
import { money } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { ScrollTable } from "../../ui/ScrollTable";
import { EmptyState } from "../../ui/states";

/** Every line of the statement: its deal, kind, amount, status and the explanation's summary. */
export function StatementLines({ statement, currency }: { statement: Statement; currency: string }) {
  if (statement.lines.length === 0) {
    return (
      <EmptyState title={`No commission lines in ${statement.period}`}>Lines appear once a deal closes.</EmptyState>
    );
  }
  return (
    <ScrollTable minWidth={600} label="Statement lines">
      <Table striped data-testid="statement-lines">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Deal</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>How it was computed</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {statement.lines.map((line) => (
            <Table.Tr key={line.id} data-line-id={line.id}>
              <Table.Td>
                <AnchorLink
                  to="/deals/$dealId"
                  params={{ dealId: line.deal_id }}
                  ff="monospace"
                  fz="xs"
                  style={{ wordBreak: "break-all" }}
                >
                  {line.deal_id}
                </AnchorLink>
              </Table.Td>
              <Table.Td>{line.kind}</Table.Td>
              <Table.Td ta="right" data-testid="amount" style={{ whiteSpace: "nowrap" }}>
                {money(line.amount, currency)}
              </Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>
                <Badge
                  miw="max-content"
                  variant="light"
                  color={line.status === "paid" ? "teal" : line.status === "approved" ? "blue" : "gray"}
                >
                  {line.status}
                </Badge>
              </Table.Td>
              <Table.Td fz="sm">{line.explanation.summary}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
