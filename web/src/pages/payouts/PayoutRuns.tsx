import { Badge, Button, Group, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { type PayoutRun, payoutRunsQuery } from "../../data/payout-runs/queries";
import { date } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { type Column, DataTable, listOf } from "../../ui/DataTable";
import { RUN_STATUS_COLORS, RUN_STATUS_LABELS, RunTotals } from "./run-parts";

// The form (dates, people picker) loads when someone opens it.
const NewRunModal = lazy(() => import("./NewRunModal").then((m) => ({ default: m.NewRunModal })));

const RUNS_PAGE_SIZE = 10;

const COLUMNS: Column<PayoutRun>[] = [
  {
    header: "Run",
    rowHeader: true,
    cell: (run) => (
      <AnchorLink to="/payouts/runs/$runId" params={{ runId: run.id }} title={run.id}>
        {`Pay date ${date(run.pay_date)}`}
      </AnchorLink>
    ),
  },
  {
    header: "Status",
    cell: (run) => (
      <Badge variant="light" color={RUN_STATUS_COLORS[run.status]} miw="max-content">
        {RUN_STATUS_LABELS[run.status]}
      </Badge>
    ),
  },
  { header: "Lines through", cell: (run) => date(run.through) },
  { header: "Net pay", numeric: true, cell: (run) => <RunTotals totals={run.totals} /> },
  { header: "People", numeric: true, cell: (run) => run.totals.reduce((n, t) => n + t.payees, 0) },
];

/** Finance's pay cycle: every payout run, newest first, and the way to start the next one. */
export function PayoutRuns(props: { page: number; onPage: (page: number) => void }) {
  const runs = useQuery({
    ...payoutRunsQuery({ page: props.page, per_page: RUNS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const [creating, setCreating] = useState(false);
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={2} size="h3">
            Payout runs
          </Title>
          <Text size="sm" c="gray.7">
            A run gathers every approved line through a date, nets each person's pay and, once finalized, pays it and
            gives payroll its file.
          </Text>
        </Stack>
        <Button onClick={() => setCreating(true)}>New payout run</Button>
      </Group>
      <DataTable
        label="Payout runs"
        testId="payout-runs"
        minWidth={620}
        table={{ fz: "sm" }}
        columns={COLUMNS}
        rowKey={(run) => run.id}
        rowProps={(run) => ({ "data-testid": "payout-run", "data-run-id": run.id, "data-status": run.status })}
        loading="Loading payout runs"
        loadingLines={3}
        empty={{
          title: "No payout runs yet",
          children: "Start one to pay what has been approved: it is a draft until you finalize it.",
        }}
        {...listOf(runs, { noun: ["run", "runs"], onPage: props.onPage, countId: "run-total" })}
      />
      {creating && (
        <Suspense>
          <NewRunModal onClose={() => setCreating(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
