import { Button, Drawer, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { type Draw, drawQuery } from "../../data/draws/queries";
import { date, dateTime, money, signedMoney } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { type Column, RecordTable } from "../../ui/DataTable";
import { ErrorState, LoadingState } from "../../ui/states";
import { ENTRY_LABELS, KIND_LABELS } from "./draw-text";

type Period = Draw["periods"][number];
type Entry = Draw["entries"][number];
const nowrap = () => ({ style: { whiteSpace: "nowrap" } });
const orDash = (value: number | null, currency: string) => (value === null ? "—" : money(value, currency));

function periodColumns(currency: string): Column<Period>[] {
  return [
    { header: "Period", id: "period", rowHeader: true, cell: (p) => p.period },
    { header: "Earned", id: "earned", numeric: true, props: nowrap, cell: (p) => orDash(p.earned, currency) },
    { header: "Advance", id: "advance", numeric: true, props: nowrap, cell: (p) => orDash(p.advance, currency) },
    {
      header: "Settled by",
      id: "run",
      cell: (p) =>
        p.payout_run_id ? (
          <AnchorLink to="/payouts/runs/$runId" params={{ runId: p.payout_run_id }}>
            {p.payout_run_id}
          </AnchorLink>
        ) : (
          "Not yet"
        ),
    },
  ];
}

function entryColumns(currency: string): Column<Entry>[] {
  return [
    { header: "Entry", id: "type", rowHeader: true, cell: (e) => ENTRY_LABELS[e.type] },
    { header: "Amount", id: "amount", numeric: true, props: nowrap, cell: (e) => signedMoney(e.amount, currency) },
    { header: "When", id: "when", props: nowrap, cell: (e) => dateTime(e.created_at) },
    { header: "Run or reason", id: "why", cell: (e) => e.reason ?? e.payout_run_id ?? "—" },
  ];
}

/** A draw opened from the list: its terms, periods, entries and balance; finance and admins act on it. */
export function DrawDrawer(props: {
  drawId: string | undefined;
  nameOf: (id: string) => string;
  canEdit: boolean;
  onEnd: (draw: Draw) => void;
  onForgive: (draw: Draw) => void;
  onClose: () => void;
}) {
  const { drawId, onClose } = props;
  return (
    <Drawer
      opened={Boolean(drawId)}
      onClose={onClose}
      position="right"
      size="xl"
      title="Draw"
      closeButtonProps={{ "aria-label": "Close" }}
    >
      {drawId && <DrawBody {...props} drawId={drawId} />}
    </Drawer>
  );
}

function DrawBody({
  drawId,
  nameOf,
  canEdit,
  onEnd,
  onForgive,
}: {
  drawId: string;
  nameOf: (id: string) => string;
  canEdit: boolean;
  onEnd: (draw: Draw) => void;
  onForgive: (draw: Draw) => void;
}) {
  const query = useQuery(drawQuery(drawId));
  if (query.error) return <ErrorState error={query.error} retry={() => void query.refetch()} />;
  if (!query.data) return <LoadingState label="Loading the draw" />;
  const draw = query.data;
  const fact = (label: string, value: string, testId?: string) => (
    <div>
      <Text size="xs" c="gray.7">
        {label}
      </Text>
      <Text fw={500} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
  return (
    <Stack data-testid="draw-detail" data-draw-id={draw.id}>
      <SimpleGrid cols={{ base: 2, sm: 3 }}>
        {fact("Person", nameOf(draw.user_id))}
        {fact("Kind", KIND_LABELS[draw.kind])}
        {fact("Status", draw.status === "active" ? "Active" : "Ended", "draw-status")}
        {fact("Guaranteed", `${money(draw.amount, draw.currency)} a ${draw.period}`, "draw-amount")}
        {fact("From", date(draw.starts_on))}
        {fact("To", date(draw.ends_on), "draw-ends-on")}
        {draw.recovery_starts_on && fact("Recovery from", date(draw.recovery_starts_on))}
        {fact("Balance", money(draw.balance, draw.currency), "draw-balance")}
      </SimpleGrid>
      {canEdit && (
        <Group gap="xs">
          <Button size="xs" variant="light" color="red" onClick={() => onEnd(draw)}>
            End the draw
          </Button>
          {draw.kind === "recoverable" && draw.balance > 0 && (
            <Button size="xs" variant="light" onClick={() => onForgive(draw)}>
              Forgive the balance
            </Button>
          )}
        </Group>
      )}
      <Title order={3} size="h5">
        Periods
      </Title>
      <RecordTable
        label="Draw periods"
        testId="draw-periods"
        minWidth={480}
        rowKey={(p) => p.period}
        rowProps={(p) => ({ "data-period": p.period })}
        columns={periodColumns(draw.currency)}
        rows={draw.periods}
      />
      <Title order={3} size="h5">
        Entries
      </Title>
      {draw.entries.length === 0 ? (
        <Text size="sm" c="gray.7">
          No advance, recovery or forgiveness yet: a payout run settles each period.
        </Text>
      ) : (
        <RecordTable
          label="Draw entries"
          testId="draw-entries"
          minWidth={480}
          rowKey={(e) => `${e.type} ${e.created_at} ${e.line_id ?? ""} ${e.amount} ${e.reason ?? ""}`}
          columns={entryColumns(draw.currency)}
          rows={draw.entries}
        />
      )}
    </Stack>
  );
}
