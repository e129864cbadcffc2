import { Card, Stack, Text } from "@mantine/core";
import type { Schemas } from "../../api/types";
import { money } from "../../lib/format";
import { type Column, RecordTable } from "../DataTable";
import { LINE_KIND_LABELS } from "../labels";
import { ExplanationTable } from "./ExplanationTable";
import { LineHeader } from "./LineHeader";

type Commission = Schemas["Commission"];

interface Props {
  /** Each in its own currency (API.md §15: a converted line is in its plan's). */
  lines: Commission[];
  nameOf: (userId: string) => string;
  /** One row a line (kind, person, period, status, amount): what a dispute's resolution is weighed against. */
  compact?: boolean;
}

/**
 * A deal's commission lines: each with its heading and its calculation (the deal page, the approval
 * queue's drawer), or compact, one table row each (the dispute queue).
 */
export function DealLines({ lines, nameOf, compact }: Props) {
  if (compact) return <LineRows lines={lines} nameOf={nameOf} />;
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
            currency={line.currency}
          />
          <ExplanationTable line={line} currency={line.currency} lineAnchor={lineAnchor} />
        </Card>
      ))}
    </Stack>
  );
}

const LINE_COLUMNS = (nameOf: (id: string) => string): Column<Commission>[] => [
  { header: "Kind", cell: (line) => LINE_KIND_LABELS[line.kind] },
  { header: "Person", cell: (line) => nameOf(line.user_id) },
  { header: "Period", cell: (line) => line.period },
  { header: "Status", cell: (line) => line.status },
  {
    header: "Amount",
    numeric: true,
    props: () => ({ "data-testid": "deal-line-amount" }),
    cell: (line) => money(line.amount, line.currency),
  },
];

function LineRows({ lines, nameOf }: Omit<Props, "compact">) {
  return (
    <RecordTable
      label="The deal's commission lines"
      testId="deal-lines"
      minWidth={520}
      table={{ fz: "sm" }}
      columns={LINE_COLUMNS(nameOf)}
      rows={lines}
      rowProps={() => ({ "data-testid": "deal-line" })}
    />
  );
}
