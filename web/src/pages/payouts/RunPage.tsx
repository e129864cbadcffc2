import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { ApiError } from "../../api/errors";
import { type PayoutRunDetail, payoutRunQuery } from "../../data/payout-runs/queries";
import { date, dateTime, decimal, money } from "../../lib/format";
import { RecordId } from "../../ui/RecordId";
import { ErrorState, LoadingState, NotFoundState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { RunActions } from "./RunActions";
import { RunExports } from "./RunExports";
import { RunLines } from "./RunLines";
import { RunPayees } from "./RunPayees";
import { RUN_STATUS_COLORS, RUN_STATUS_LABELS } from "./run-parts";

const route = getRouteApi("/signed-in/payouts/runs/$runId");
export const LINES_PAGE_SIZE = 50;

/** One payout run: what it pays each person, every line by deal, and finalizing, cancelling or exporting it. */
export function RunPage() {
  const { runId } = route.useParams();
  const search = route.useSearch();
  const run = useQuery({
    ...payoutRunQuery(runId, { page: search.page ?? 1, per_page: LINES_PAGE_SIZE, user_id: search.person }),
    placeholderData: keepPreviousData,
  });
  useRenderedMark(run.data !== undefined);
  if (run.isPending) return <LoadingState label="Loading the payout run" lines={8} />;
  if (run.isError) {
    if (run.error instanceof ApiError && run.error.status === 404) return <NotFoundState what="payout run" />;
    return <ErrorState error={run.error} retry={() => void run.refetch()} />;
  }
  return <RunView run={run.data} />;
}

function RunView({ run }: { run: PayoutRunDetail }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const person = search.person ? run.payees.find((p) => p.user_id === search.person) : undefined;
  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1} size="h2">
            Payout run, pay date {date(run.pay_date)}
          </Title>
          <Group gap="xs">
            <Badge data-testid="run-status" color={RUN_STATUS_COLORS[run.status]}>
              {RUN_STATUS_LABELS[run.status]}
            </Badge>
            <RecordId id={run.id} label="The run's id" />
          </Group>
        </Stack>
        <RunActions run={run} />
      </Group>

      <Card withBorder>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <Fact label="Lines approved through" value={date(run.through)} />
          <Fact label="Period" value={`${date(run.period_start)} – ${date(run.period_end)}`} />
          <Fact label="Recovery cap" value={`${decimal(run.max_recovery_percent, 4)} % of earnings`} />
          <Fact label="Created" value={dateTime(run.created_at)} />
          {run.finalized_at && <Fact label="Finalized" value={dateTime(run.finalized_at)} />}
          {run.cancelled_at && <Fact label="Cancelled" value={dateTime(run.cancelled_at)} />}
        </SimpleGrid>
      </Card>

      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm" data-testid="run-totals">
        {run.totals.length === 0 && (
          <Text>This run holds no lines: nothing was approved and unpaid through its date.</Text>
        )}
        {run.totals.map((t) => (
          <Card withBorder key={t.currency} data-testid="run-total" data-currency={t.currency}>
            <Text size="sm" c="gray.7">
              Net pay in {t.currency}
            </Text>
            <Text fz="xl" fw={700} data-testid="run-total-net-pay">
              {money(t.net_pay, t.currency)}
            </Text>
            <Text size="sm">
              {t.payees} {t.payees === 1 ? "person" : "people"}, {t.lines} {t.lines === 1 ? "line" : "lines"} totalling{" "}
              {money(t.lines_total, t.currency)}
              {t.recovered > 0 && `; ${money(t.recovered, t.currency)} recovered from earlier deficits`}
              {t.deficit_carried_forward > 0 && `; ${money(t.deficit_carried_forward, t.currency)} still owed after it`}
            </Text>
          </Card>
        ))}
      </SimpleGrid>

      {run.status === "finalized" && <RunExports run={run} />}

      <RunPayees
        run={run}
        selected={search.person}
        onSelect={(userId) => void navigate({ search: { person: userId, page: undefined } })}
      />
      <RunLines
        run={run}
        person={person}
        onAll={() => void navigate({ search: { person: undefined, page: undefined } })}
        onPage={(page) => void navigate({ search: { ...search, page } })}
      />
    </Stack>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="gray.7">
        {label}
      </Text>
      <Text size="sm" fw={600}>
        {value}
      </Text>
    </Stack>
  );
}
