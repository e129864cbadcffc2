import { Badge } from "@mantine/core";
import type { Statement } from "../../data/statements/queries";
import { money } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { type Column, RecordTable } from "../../ui/DataTable";
import { EmptyState } from "../../ui/states";

type Line = Statement["lines"][number];
const nowrap = () => ({ style: { whiteSpace: "nowrap" } });

/** Every line of the statement: its deal, kind, amount, status and the explanation's summary. */
export function StatementLines({ statement, currency }: { statement: Statement; currency: string }) {
  if (statement.lines.length === 0) {
    return (
      <EmptyState title={`No commission lines in ${statement.period}`}>Lines appear once a deal closes.</EmptyState>
    );
  }
  const columns: Column<Line>[] = [
    {
      header: "Deal",
      cell: (line) => (
        <AnchorLink
          to="/deals/$dealId"
          params={{ dealId: line.deal_id }}
          ff="monospace"
          fz="xs"
          style={{ wordBreak: "break-all" }}
        >
          {line.deal_id}
        </AnchorLink>
      ),
    },
    { header: "Kind", cell: (line) => line.kind },
    {
      header: "Amount",
      numeric: true,
      props: () => ({ "data-testid": "amount", ...nowrap() }),
      cell: (line) => money(line.amount, currency),
    },
    {
      header: "Status",
      props: nowrap,
      cell: (line) => (
        <Badge
          miw="max-content"
          variant="light"
          color={line.status === "paid" ? "teal" : line.status === "approved" ? "blue" : "gray"}
        >
          {line.status}
        </Badge>
      ),
    },
    { header: "How it was computed", props: () => ({ fz: "sm" }), cell: (line) => line.explanation.summary },
  ];
  return (
    <RecordTable
      label="Statement lines"
      testId="statement-lines"
      minWidth={600}
      table={{ striped: true }}
      columns={columns}
      rows={statement.lines}
      rowProps={(line) => ({ "data-line-id": line.id })}
    />
  );
}
