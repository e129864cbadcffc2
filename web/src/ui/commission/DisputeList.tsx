import { Anchor, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Link, useRouteContext } from "@tanstack/react-router";
import { dealQuery } from "../../data/deals/queries";
import type { Dispute } from "../../data/disputes/queries";
import { date, money } from "../../lib/format";
import { type Column, RecordTable } from "../DataTable";
import { DISPUTE_OUTCOME_LABELS, DISPUTE_REASON_LABELS } from "../labels";

/** The dispute's deal (its name, its currency), read once per deal however many cells ask. */
const useDeal = (dispute: Dispute, known: boolean) => useQuery({ ...dealQuery(dispute.deal_id), enabled: !known });

function Amount({ dispute, value, currency }: { dispute: Dispute; value: number | null; currency?: string }) {
  const deal = useDeal(dispute, currency !== undefined);
  const shown = currency ?? deal.data?.currency;
  return <>{value === null ? "—" : shown ? money(value, shown) : "…"}</>;
}

function DealName({ dispute }: { dispute: Dispute }) {
  const deal = useDeal(dispute, false);
  return (
    <Anchor
      c="indigo.9"
      renderRoot={(props) => <Link {...props} to="/deals/$dealId" params={{ dealId: dispute.deal_id }} />}
    >
      {deal.data?.opportunity_name ?? dispute.deal_id}
    </Anchor>
  );
}

/** Whose lines the amounts total, the same for every reader (API.md §20 b). */
function ScopeNote({ dispute }: { dispute: Dispute }) {
  const { session } = useRouteContext({ from: "/signed-in" });
  if (dispute.amount_scope === "deal") return <>the deal's total</>;
  return <>{dispute.scope_user_id === session.user.id ? "your own lines" : "the opener's own lines"}</>;
}

/**
 * A list of disputes: status, reason, expected amount, outcome, resolved amount, note, dates. With
 * `currency` the deal is known (the deal page); without, each row reads its deal for its name and currency.
 */
export function disputeColumns(currency?: string): Column<Dispute>[] {
  const columns: Column<Dispute>[] = [
    {
      header: "Status",
      cell: (d) => (
        // teal 9 is 5:1 on white and on a striped row; green 9 (4.4:1) failed axe's contrast check.
        <Text size="sm" fw={600} c={d.status === "open" ? "red.9" : "teal.9"}>
          {d.status}
        </Text>
      ),
    },
    {
      header: "Reason",
      cell: (d) => (
        <>
          <Text size="sm">{DISPUTE_REASON_LABELS[d.reason]}</Text>
          {d.description && (
            <Text size="xs" c="gray.7" lineClamp={3}>
              {d.description}
            </Text>
          )}
        </>
      ),
    },
    {
      header: "Expected",
      numeric: true,
      cell: (d) => (
        <>
          <Text size="sm" data-testid="dispute-expected">
            <Amount dispute={d} value={d.expected_amount} currency={currency} />
          </Text>
          <Text size="xs" c="gray.7" data-testid="dispute-scope">
            <ScopeNote dispute={d} />
          </Text>
        </>
      ),
    },
    { header: "Outcome", cell: (d) => (d.outcome ? DISPUTE_OUTCOME_LABELS[d.outcome] : "—") },
    {
      header: "Resolved amount",
      numeric: true,
      cell: (d) => <Amount dispute={d} value={d.resolved_amount} currency={currency} />,
    },
    {
      header: "Note",
      cell: (d) => (
        <Text size="sm" lineClamp={3}>
          {d.resolution_note ?? "—"}
        </Text>
      ),
    },
    { header: "Opened", cell: (d) => date(d.created_at) },
    { header: "Resolved", cell: (d) => (d.resolved_at ? date(d.resolved_at) : "—") },
  ];
  return currency ? columns : [{ header: "Deal", cell: (d) => <DealName dispute={d} /> }, ...columns];
}

export const DISPUTE_TABLE = {
  label: "Disputes",
  testId: "dispute-table",
  minWidth: 760,
  table: { fz: "sm" },
  rowKey: (d: Dispute) => d.id,
  rowProps: (d: Dispute) => ({ "data-testid": "dispute-row", "data-dispute-id": d.id }),
} as const;

/** One deal's disputes (the deal page: its currency known). */
export function DisputeList({ disputes, currency }: { disputes: Dispute[]; currency: string }) {
  return <RecordTable {...DISPUTE_TABLE} columns={disputeColumns(currency)} rows={disputes} />;
}
