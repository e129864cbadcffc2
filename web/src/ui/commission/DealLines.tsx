import { Card, Stack, Table, Text } from "@mantine/core";
import type { Schemas } from "../../api/types";
import { money } from "../../lib/format";
import { LINE_KIND_LABELS } from "../labels";
import { ScrollTable } from "../ScrollTable";
import { ExplanationTable } from "./ExplanationTable";
import { LineHeader } from "./LineHeader";

type Commission = Schemas["Commission"];

interface Props {
  lines: Commission[];
  currency: string;
  nameOf: (userId: string) => string;
  /** One row a line (kind, person, period, status, amount): what a dispute's resolution is weighed against. */
  compact?: boolean;
}

/**
 * A deal's commission lines: each with its heading and its calculation (the deal page, the approval
 * queue's drawer), or compact, one table row each (the dispute queue).
 */
export function DealLines({ lines, currency, nameOf, compact }: Props) {
  if (compact) return <LineRows lines={lines} currency={currency} nameOf={nameOf} />;
  const lineIds = new Set(lines.map((line) => line.id));
  const lineAnchor = (id: string) => (lineIds.has(id) ? `line-${id}` : undefined);
  if (lines.length === 0) return <Text c="gray.7">This deal has no lines you can see.</Text>;
  return (
    <Stack gap="sm">
      {lines.map((line) => (
        <Card
          key={line.id}
          withBorder
          id={`line-${line.id}`}
          data-testid="commission-line"
          data-line-id={line.id}
          data-kind={line.kind}
        >
          <LineHeader
            kind={line.kind}
            person={nameOf(line.user_id)}
            status={line.status}
            period={line.period}
            amount={line.amount}
            currency={currency}
          />
          <ExplanationTable line={line} currency={currency} lineAnchor={lineAnchor} />
        </Card>
      ))}
    </Stack>
  );
}

function LineRows({ lines, currency, nameOf }: Omit<Props, "compact">) {
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
              <Table.Td>{LINE_KIND_LABELS[line.kind]}</Table.Td>
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
