import { Box, Stack, Text } from "@mantine/core";
import { money, percent } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import type { Column, SortDirection } from "../../ui/DataTable";
import { ROLE_LABELS } from "../../ui/labels";
import type { TEAM_COLUMNS } from "./schemas";
import type { TeamRow } from "./teamRows";

export type TeamColumn = (typeof TEAM_COLUMNS)[number];
export interface TeamSort {
  column: TeamColumn;
  direction: SortDirection;
}

/** What a column sorts by: the API's numbers as given (a person without a quota sorts first). */
function sortKey(row: TeamRow, column: TeamColumn): string | number {
  switch (column) {
    case "name":
      return row.user.name;
    case "role":
      return row.user.role;
    case "manager":
      return row.managerName;
    case "period":
      return row.period;
    case "attainment":
      return row.plans[0]?.attainment_ratio ?? -1;
    case "total":
      return row.total;
    case "deals":
      return row.deals;
    default:
      return row.earned[column];
  }
}

export function sorted(rows: TeamRow[], { column, direction }: TeamSort): TeamRow[] {
  const sign = direction === "ascending" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const [x, y] = [sortKey(a, column), sortKey(b, column)];
    const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return sign * order || a.user.name.localeCompare(b.user.name);
  });
}

/** The team's columns; every one sorts (click again to reverse). */
export function teamColumns(sort: TeamSort, onSort: (sort: TeamSort) => void): Column<TeamRow>[] {
  const by = (column: TeamColumn) => ({
    direction: sort.column === column ? sort.direction : undefined,
    toggle: () =>
      onSort({
        column,
        direction: sort.column === column && sort.direction === "ascending" ? "descending" : "ascending",
      }),
  });
  const earned = (key: "pending" | "approved" | "paid", header: string): Column<TeamRow> => ({
    header,
    id: key,
    numeric: true,
    visibleFrom: "sm",
    sort: by(key),
    cell: (row) => money(row.earned[key], row.currency),
  });
  // A phone keeps the name (with the period), attainment and earnings: the total, then the three
  // amounts by status in one column, each named.
  const earnedTogether: Column<TeamRow> = {
    header: "Earned",
    id: "earned",
    numeric: true,
    hiddenFrom: "sm",
    cell: (row) => (
      // An amount never breaks; its word follows on the same line when the column has room, else below it,
      // so the widest amount (not amount and word) sets the column's least width.
      <Stack gap={0} align="flex-end">
        <Text size="sm" fw={700} data-earned="total" ta="right">
          <span style={{ whiteSpace: "nowrap" }}>{money(row.total, row.currency)}</span>{" "}
          <Text span size="xs" c="dimmed" fw={400}>
            in all
          </Text>
        </Text>
        {(["pending", "approved", "paid"] as const).map((key) => (
          <Text key={key} size="sm" data-earned={key} ta="right">
            <span style={{ whiteSpace: "nowrap" }}>{money(row.earned[key], row.currency)}</span>{" "}
            <Text span size="xs" c="dimmed">
              {key}
            </Text>
          </Text>
        ))}
      </Stack>
    ),
  };
  return [
    {
      header: "Name",
      rowHeader: true,
      sort: by("name"),
      // A long name wraps between words (on a phone the row keeps attainment and earnings in view).
      props: () => ({ style: { overflowWrap: "break-word" } }),
      cell: (row) => (
        <>
          <AnchorLink to="/people/$userId" params={{ userId: row.user.id }}>
            {row.user.name}
          </AnchorLink>
          <Box hiddenFrom="sm" data-testid="period-narrow">
            <Period row={row} />
          </Box>
        </>
      ),
    },
    { header: "Role", visibleFrom: "sm", sort: by("role"), cell: (row) => ROLE_LABELS[row.user.role] },
    { header: "Manager", visibleFrom: "sm", sort: by("manager"), cell: (row) => row.managerName },
    {
      header: "Period",
      id: "period",
      visibleFrom: "sm",
      sort: by("period"),
      props: () => ({ style: { whiteSpace: "nowrap" } }),
      cell: (row) => <Period row={row} />,
    },
    {
      header: "Attainment",
      id: "attainment",
      numeric: true,
      sort: by("attainment"),
      cell: (row) => <Attainment row={row} />,
    },
    {
      header: "Earned",
      id: "total",
      numeric: true,
      visibleFrom: "sm",
      sort: by("total"),
      props: () => ({ fw: 600 }),
      cell: (row) => money(row.total, row.currency),
    },
    earned("pending", "Pending"),
    earned("approved", "Approved"),
    earned("paid", "Paid"),
    earnedTogether,
    { header: "Deals", id: "deals", numeric: true, visibleFrom: "sm", sort: by("deals"), cell: (row) => row.deals },
  ];
}

const KIND_WORDS = { month: "month", quarter: "quarter", year: "year" } as const;

/** The person's own period ("2026-Q4") and what it is ("quarter"): each row may follow another kind of plan. */
function Period({ row }: { row: TeamRow }) {
  return (
    <Text size="sm" span data-period={row.period} data-testid="team-period">
      <span style={{ whiteSpace: "nowrap" }}>{row.period}</span>{" "}
      <Text span size="xs" c="dimmed">
        {KIND_WORDS[row.periodKind]}
      </Text>
    </Text>
  );
}

/** Each plan's attainment: the ratio, and the credit against the quota in the plan's currency. */
function Attainment({ row }: { row: TeamRow }) {
  if (row.plans.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No deals credited
      </Text>
    );
  }
  return (
    <Stack gap={0} align="flex-end">
      {row.plans.map((plan) => (
        <div key={plan.plan_id} data-plan-id={plan.plan_id}>
          <Text fw={600}>{plan.attainment_ratio === null ? "—" : percent(plan.attainment_ratio)}</Text>
          <Text size="xs" c="dimmed">
            {money(plan.attainment, plan.currency)}
            {plan.quota === null ? "" : ` of ${money(plan.quota, plan.currency)}`}
          </Text>
        </div>
      ))}
    </Stack>
  );
}
