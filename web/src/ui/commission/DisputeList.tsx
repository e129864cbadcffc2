import { Anchor, Table, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Link, useRouteContext } from "@tanstack/react-router";
import { dealQuery } from "../../data/deals/queries";
import type { Dispute } from "../../data/disputes/queries";
import { date, money } from "../../lib/format";
import { DISPUTE_OUTCOME_LABELS, DISPUTE_REASON_LABELS } from "../labels";
import { ScrollTable } from "../ScrollTable";

/**
 * Disputes as a table: status, reason, expected amount, outcome, resolved amount, note, dates. With
 * `currency` the deal is known (the deal page); without, each row reads its deal for its name and currency.
 */
export function DisputeList({ disputes, currency }: { disputes: Dispute[]; currency?: string }) {
  return (
    <ScrollTable minWidth={760} label="Disputes">
      <Table aria-label="Disputes" fz="sm" data-testid="dispute-table">
        <Table.Thead>
          <Table.Tr>
            {!currency && <Table.Th>Deal</Table.Th>}
            <Table.Th>Status</Table.Th>
            <Table.Th>Reason</Table.Th>
            <Table.Th ta="right">Expected</Table.Th>
            <Table.Th>Outcome</Table.Th>
            <Table.Th ta="right">Resolved amount</Table.Th>
            <Table.Th>Note</Table.Th>
            <Table.Th>Opened</Table.Th>
            <Table.Th>Resolved</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {disputes.map((dispute) => (
            <DisputeRow key={dispute.id} dispute={dispute} currency={currency} />
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

function DisputeRow({ dispute, currency }: { dispute: Dispute; currency?: string }) {
  const deal = useQuery({ ...dealQuery(dispute.deal_id), enabled: !currency });
  const shownCurrency = currency ?? deal.data?.currency;
  const amount = (value: number | null) => (value === null ? "—" : shownCurrency ? money(value, shownCurrency) : "…");
  const { session } = useRouteContext({ from: "/signed-in" });
  // API.md §20 (b): whose lines the amounts total, the same for every reader.
  const scopeNote =
    dispute.amount_scope === "deal"
      ? "the deal's total"
      : dispute.scope_user_id === session.user.id
        ? "your own lines"
        : "the opener's own lines";
  return (
    <Table.Tr data-testid="dispute-row" data-dispute-id={dispute.id}>
      {!currency && (
        <Table.Td>
          <Anchor
            c="indigo.9"
            renderRoot={(props) => <Link {...props} to="/deals/$dealId" params={{ dealId: dispute.deal_id }} />}
          >
            {deal.data?.opportunity_name ?? dispute.deal_id}
          </Anchor>
        </Table.Td>
      )}
      <Table.Td>
        <Text size="sm" fw={600} c={dispute.status === "open" ? "red.9" : "green.9"}>
          {dispute.status}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{DISPUTE_REASON_LABELS[dispute.reason]}</Text>
        {dispute.description && (
          <Text size="xs" c="gray.7" lineClamp={3}>
            {dispute.description}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right">
        <Text size="sm" data-testid="dispute-expected">
          {amount(dispute.expected_amount)}
        </Text>
        <Text size="xs" c="gray.7" data-testid="dispute-scope">
          {scopeNote}
        </Text>
      </Table.Td>
      <Table.Td>{dispute.outcome ? DISPUTE_OUTCOME_LABELS[dispute.outcome] : "—"}</Table.Td>
      <Table.Td ta="right">{amount(dispute.resolved_amount)}</Table.Td>
      <Table.Td>
        <Text size="sm" lineClamp={3}>
          {dispute.resolution_note ?? "—"}
        </Text>
      </Table.Td>
      <Table.Td>{date(dispute.created_at)}</Table.Td>
      <Table.Td>{dispute.resolved_at ? date(dispute.resolved_at) : "—"}</Table.Td>
    </Table.Tr>
  );
}
