import { Badge, Stack, Text } from "@mantine/core";
import type { Statement } from "../../data/statements/queries";
import { date, money, sharePercent } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { type Column, RecordTable } from "../../ui/DataTable";
import { DEAL_TYPE_LABELS, LINE_KIND_LABELS } from "../../ui/labels";
import { EmptyState } from "../../ui/states";

type Line = Statement["lines"][number];
const nowrap = () => ({ style: { whiteSpace: "nowrap" } });

// What a person reconciles a line by: the deal's name (its id in the link and its tooltip), what the
// line pays, then the deal's close date, ARR and their share of it.
const COLUMNS: Column<Line>[] = [
  {
    header: "Deal",
    id: "deal",
    cell: (line) => (
      <Stack gap={0}>
        <AnchorLink to="/deals/$dealId" params={{ dealId: line.deal_id! }} title={line.deal_id!}>
          {line.deal!.opportunity_name}
        </AnchorLink>
        <Text size="xs" c="gray.7">
          {DEAL_TYPE_LABELS[line.deal!.deal_type]}
        </Text>
      </Stack>
    ),
  },
  {
    header: "Amount",
    id: "amount",
    numeric: true,
    props: () => ({ "data-testid": "amount", ...nowrap() }),
    cell: (line) => money(line.amount, line.currency),
  },
  {
    header: "Status",
    id: "status",
    props: nowrap,
    cell: (line) => (
      <Stack gap={2} align="flex-start">
        <Badge
          miw="max-content"
          variant="light"
          color={line.status === "paid" ? "teal" : line.status === "approved" ? "blue" : "gray"}
        >
          {line.status}
        </Badge>
        {line.payout_run && (
          <Text size="xs" c="gray.7" data-testid="paid-in" title={line.payout_run.id}>
            {line.payout_run.status === "finalized"
              ? `Paid on ${date(line.payout_run.pay_date)}`
              : `In the run paying ${date(line.payout_run.pay_date)}`}
          </Text>
        )}
      </Stack>
    ),
  },
  { header: "Closed", id: "close-date", props: nowrap, cell: (line) => date(line.deal!.close_date) },
  {
    header: "ARR",
    id: "arr",
    numeric: true,
    props: nowrap,
    cell: (line) => money(line.deal!.arr_amount, line.deal!.currency),
  },
  {
    header: "Credit",
    id: "credit",
    numeric: true,
    cell: (line) => (line.deal!.credit_percent === null ? "—" : sharePercent(line.deal!.credit_percent)),
  },
  { header: "Kind", id: "kind", cell: (line) => LINE_KIND_LABELS[line.kind] },
  {
    header: "How it was computed",
    id: "explanation",
    props: () => ({ fz: "sm", miw: 240 }),
    cell: (line) => line.explanation.summary,
  },
];

/** Every line of the statement: its deal by name, amount, status, the deal's terms and the explanation. */
export function StatementLines({ statement }: { statement: Statement }) {
  if (statement.lines.length === 0) {
    // Draw lines alone (API.md §18): they have their own table below, so the period is not empty.
    if (statement.draw_lines.length > 0)
      return (
        <Text size="sm" c="gray.7">
          No commission lines of deals in {statement.period}; its draw lines follow.
        </Text>
      );
    return (
      <EmptyState title={`No commission lines in ${statement.period}`}>Lines appear once a deal closes.</EmptyState>
    );
  }
  return (
    <RecordTable
      label="Statement lines"
      testId="statement-lines"
      minWidth={960}
      table={{ striped: true }}
      columns={COLUMNS}
      rows={statement.lines}
      rowProps={(line) => ({ "data-line-id": line.id, "data-deal-id": line.deal_id })}
    />
  );
}
