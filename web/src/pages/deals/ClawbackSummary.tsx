import { Table, Text } from "@mantine/core";
import { money } from "../../lib/format";

interface Clawback {
  user_id: string;
  plan_id: string | null;
  currency: string;
  amount: number;
  note: string;
}

/** Each person's clawback under each plan, as the API's preview (or the cancellation) gives it. */
export function ClawbackSummary(props: {
  nameOf: (userId: string) => string;
  summary: readonly Clawback[] | undefined;
  pending: boolean;
}) {
  if (!props.summary) {
    return (
      <Text size="sm" c="gray.7" aria-live="polite">
        {props.pending ? "Working out the clawbacks…" : "Fill in the form to see the clawbacks."}
      </Text>
    );
  }
  if (props.summary.length === 0)
    return <Text size="sm">Nobody earned anything on this deal: nothing to claw back.</Text>;
  return (
    <Table fz="sm" data-testid="clawback-summary" aria-label="Clawbacks">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Person</Table.Th>
          <Table.Th ta="right">Clawback</Table.Th>
          <Table.Th>Why</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.summary.map((c) => (
          <Table.Tr key={`${c.user_id} ${c.plan_id} ${c.currency}`} data-user-id={c.user_id} data-testid="clawback-row">
            <Table.Td>{props.nameOf(c.user_id)}</Table.Td>
            <Table.Td ta="right" data-testid="clawback-amount" style={{ whiteSpace: "nowrap" }}>
              {money(c.amount, c.currency)}
            </Table.Td>
            <Table.Td>{c.note}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
