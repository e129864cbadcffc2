import { Box } from "@mantine/core";
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
      <div className="stack-end">
        <span className="text-sm text-strong" data-earned="total">
          <span className="nowrap">{money(row.total, row.currency)}</span>{" "}
          <span className="text-xs-dimmed">in all</span>
        </span>
        {(["pending", "approved", "paid"] as const).map((key) => (
          <span key={key} className="text-sm" data-earned={key}>
            <span className="nowrap">{money(row.earned[key], row.currency)}</span>{" "}
            <span className="text-xs-dimmed">{key}</span>
          </span>
        ))}
      </div>
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
      props: () => ({ className: "nowrap" }),
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
      props: () => ({ className: "cell-numeric text-strong" }),
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
    <span className="text-sm" data-period={row.period} data-testid="team-period">
      <span className="nowrap">{row.period}</span> <span className="text-xs-dimmed">{KIND_WORDS[row.periodKind]}</span>
    </span>
  );
}

/** Each plan's attainment: the ratio, and the credit against the quota in the plan's currency. */
function Attainment({ row }: { row: TeamRow }) {
  if (row.plans.length === 0) {
    return <span className="text-sm dimmed">No deals credited</span>;
  }
  return (
    <div className="stack-end">
      {row.plans.map((plan) => (
        <div key={plan.plan_id} data-plan-id={plan.plan_id}>
          <div className="text-md text-strong">
            {plan.attainment_ratio === null ? "—" : percent(plan.attainment_ratio)}
          </div>
          <div className="text-xs-dimmed">
            {money(plan.attainment, plan.currency)}
            {plan.quota === null ? "" : ` of ${money(plan.quota, plan.currency)}`}
          </div>
        </div>
      ))}
    </div>
  );
}
