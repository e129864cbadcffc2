import { Button, Group, Stack, Text, Title } from "@mantine/core";
import type { Payee, PayoutRunDetail, RunLine } from "../../data/payout-runs/queries";
import { date, money } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { type Column, DataTable, listOf } from "../../ui/DataTable";
import { LINE_KIND_LABELS } from "../../ui/labels";

const nowrap = () => ({ style: { whiteSpace: "nowrap" } });

/** The run's lines (one person's, or everyone's), each by its deal's name, with how it was computed. */
export function RunLines(props: {
  run: PayoutRunDetail;
  person: Payee | undefined;
  onAll: () => void;
  onPage: (page: number) => void;
}) {
  const { run, person } = props;
  const nameOf = (userId: string) => run.payees.find((p) => p.user_id === userId)?.name ?? userId;
  const columns: Column<RunLine>[] = [
    {
      header: "Deal",
      id: "deal",
      rowHeader: true,
      cell: (line) =>
        line.deal === null || line.deal_id === null ? (
          <Text size="sm" title={line.draw_id ?? undefined}>
            Draw {line.draw_id}
          </Text>
        ) : (
          <Stack gap={0}>
            <AnchorLink to="/deals/$dealId" params={{ dealId: line.deal_id }} title={line.deal_id}>
              {line.deal.opportunity_name}
            </AnchorLink>
            <Text size="xs" c="gray.7">
              Closed {date(line.deal.close_date)}
            </Text>
          </Stack>
        ),
    },
    ...(person ? [] : [{ header: "Person", id: "person", cell: (line: RunLine) => nameOf(line.user_id) }]),
    { header: "Kind", id: "kind", cell: (line) => LINE_KIND_LABELS[line.kind] },
    { header: "Period", id: "period", props: nowrap, cell: (line) => line.period },
    {
      header: "Amount",
      id: "amount",
      numeric: true,
      props: () => ({ ...nowrap(), "data-testid": "line-amount" }),
      cell: (line) => money(line.amount, line.currency),
    },
    {
      header: "How it was computed",
      id: "explanation",
      props: () => ({ fz: "sm", miw: 260 }),
      cell: (line) => line.explanation.summary,
    },
  ];
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h3">
          {person ? `${person.name}'s lines` : "Every line"}
        </Title>
        {person && (
          <Button variant="default" size="xs" onClick={props.onAll}>
            Show everyone's lines
          </Button>
        )}
      </Group>
      <DataTable
        label={person ? `${person.name}'s lines in this run` : "Lines in this run"}
        testId="run-lines"
        minWidth={820}
        table={{ fz: "sm", striped: true }}
        columns={columns}
        rowKey={(line) => line.id}
        rowProps={(line) => ({ "data-line-id": line.id, "data-deal-id": line.deal_id, "data-user-id": line.user_id })}
        loading="Loading the run's lines"
        empty={{ title: "No lines", children: "This run pays nothing here." }}
        {...listOf(
          { data: run.lines, error: null, refetch: () => {} },
          { noun: ["line", "lines"], onPage: props.onPage, countId: "line-total" },
        )}
      />
    </Stack>
  );
}
