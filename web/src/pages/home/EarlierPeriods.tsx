import { Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { PeriodSummary } from "../../data/statements/queries";
import { money } from "../../lib/format";
import { sumMoney } from "../../lib/money";
import { today } from "../../lib/periods";
import { AnchorLink } from "../../ui/AnchorLink";
import { type Column, RecordTable } from "../../ui/DataTable";

/** Periods listed at most: every one with money still in flight, then the newest paid ones up to this. */
const ROWS = 8;

/** Each status: its figure's label, and its column's. */
const STATUSES = [
  ["pending", "Pending approval", "Pending"],
  ["approved", "Approved, not yet paid", "Approved"],
  ["paid", "Paid", "Paid"],
] as const;

/**
 * What a person earned outside the period(s) home shows: pending, approved-unpaid and paid, summed in
 * cents over those periods (GET /users/{id}/periods), each period linking to its statement.
 */
export function EarlierPeriods(props: { userId: string; periods: PeriodSummary[]; shown: string[]; currency: string }) {
  const { userId, currency } = props;
  const periods = props.periods.filter((p) => !p.current && !props.shown.includes(p.period) && p.lines > 0);
  if (periods.length === 0) return null;
  const inFlight = (p: PeriodSummary) => p.by_status.pending !== 0 || p.by_status.approved !== 0;
  const paidRoom = Math.max(0, ROWS - periods.filter(inFlight).length);
  const paidShown = new Set(periods.filter((p) => !inFlight(p)).slice(0, paidRoom));
  const rows = periods.filter((p) => inFlight(p) || paidShown.has(p));
  const title = periods.every((p) => p.to < today()) ? "Earlier periods" : "Other periods";
  const columns: Column<PeriodSummary>[] = [
    {
      header: "Period",
      rowHeader: true,
      cell: (p) => (
        <AnchorLink to="/statements/$period" params={{ period: p.period }} search={{ user: userId }}>
          {p.period}
        </AnchorLink>
      ),
    },
    ...STATUSES.map(([key, , header]) => ({
      header,
      id: key,
      numeric: true,
      props: () => ({ style: { whiteSpace: "nowrap" } }),
      cell: (p: PeriodSummary) => money(p.by_status[key], currency),
    })),
  ];
  return (
    <Stack gap="sm" component="section" aria-labelledby="earlier-periods" data-testid="earlier-periods">
      <Title order={3} id="earlier-periods">
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
        {STATUSES.map(([key, label]) => (
          <Paper key={key} withBorder p="sm" data-testid={`earlier-${key}`}>
            <Text size="xs" c="gray.7">
              {label}
            </Text>
            <Text fw={700} data-testid="amount">
              {money(sumMoney(periods.map((p) => p.by_status[key])), currency)}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <RecordTable
        label={title}
        testId="earlier-periods-table"
        minWidth={340}
        columns={columns}
        rows={rows}
        rowKey={(p) => p.period}
        rowProps={(p) => ({ "data-period": p.period })}
      />
      {rows.length < periods.length && (
        <Text size="sm" c="gray.7">
          {periods.length - rows.length} more, all paid: the statement's period picker lists them.
        </Text>
      )}
    </Stack>
  );
}
