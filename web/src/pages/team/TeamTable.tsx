import { Stack, Table, Text, UnstyledButton } from "@mantine/core";
import { useState } from "react";
import { money, percent } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { ScrollTable } from "../../ui/ScrollTable";
import type { TeamRow } from "./teamRows";

type Column = "name" | "role" | "manager" | "attainment" | "pending" | "approved" | "paid" | "deals";
type Direction = "ascending" | "descending";

const HEADERS: { key: Column; label: string; numeric?: boolean }[] = [
  { key: "name", label: "Name" },
  { key: "role", label: "Role" },
  { key: "manager", label: "Manager" },
  { key: "attainment", label: "Attainment", numeric: true },
  { key: "pending", label: "Pending", numeric: true },
  { key: "approved", label: "Approved", numeric: true },
  { key: "paid", label: "Paid", numeric: true },
  { key: "deals", label: "Deals", numeric: true },
];

/** What a column sorts by: the API's numbers as given (a person without a quota sorts first). */
function sortKey(row: TeamRow, column: Column): string | number {
  switch (column) {
    case "name":
      return row.user.name;
    case "role":
      return row.user.role;
    case "manager":
      return row.managerName;
    case "attainment":
      return row.plans[0]?.attainment_ratio ?? -1;
    case "deals":
      return row.deals;
    default:
      return row.earned[column];
  }
}

function sorted(rows: TeamRow[], column: Column, direction: Direction): TeamRow[] {
  const sign = direction === "ascending" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const [x, y] = [sortKey(a, column), sortKey(b, column)];
    const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return sign * order || a.user.name.localeCompare(b.user.name);
  });
}

/** The team, one person a row; every column sorts (click again to reverse). */
export function TeamTable({ rows }: { rows: TeamRow[] }) {
  const [sort, setSort] = useState<{ column: Column; direction: Direction }>({
    column: "name",
    direction: "ascending",
  });
  const toggle = (column: Column) =>
    setSort((s) => ({
      column,
      direction: s.column === column && s.direction === "ascending" ? "descending" : "ascending",
    }));

  return (
    <ScrollTable minWidth={820} label="Team">
      <Table striped highlightOnHover verticalSpacing="sm" aria-label="Team" data-testid="team-table">
        <Table.Thead>
          <Table.Tr>
            {HEADERS.map((h) => (
              <Table.Th
                key={h.key}
                scope="col"
                ta={h.numeric ? "right" : undefined}
                aria-sort={sort.column === h.key ? sort.direction : undefined}
              >
                <UnstyledButton onClick={() => toggle(h.key)} fw={600} fz="sm">
                  {h.label}
                  {sort.column === h.key ? (sort.direction === "ascending" ? " ▲" : " ▼") : ""}
                </UnstyledButton>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted(rows, sort.column, sort.direction).map((row) => (
            <Table.Tr key={row.user.id} data-user-id={row.user.id}>
              <Table.Th scope="row" fw={500} style={{ whiteSpace: "nowrap" }}>
                <AnchorLink to="/people/$userId" params={{ userId: row.user.id }}>
                  {row.user.name}
                </AnchorLink>
              </Table.Th>
              <Table.Td>{row.user.role}</Table.Td>
              <Table.Td>{row.managerName}</Table.Td>
              <Table.Td ta="right" data-col="attainment">
                <Attainment row={row} />
              </Table.Td>
              <Table.Td ta="right" data-col="pending">
                {money(row.earned.pending, row.currency)}
              </Table.Td>
              <Table.Td ta="right" data-col="approved">
                {money(row.earned.approved, row.currency)}
              </Table.Td>
              <Table.Td ta="right" data-col="paid">
                {money(row.earned.paid, row.currency)}
              </Table.Td>
              <Table.Td ta="right" data-col="deals">
                {row.deals}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
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
          <Text span fw={600}>
            {plan.attainment_ratio === null ? "—" : percent(plan.attainment_ratio)}
          </Text>{" "}
          <Text span size="xs" c="dimmed">
            {money(plan.attainment, plan.currency)}
            {plan.quota === null ? "" : ` of ${money(plan.quota, plan.currency)}`}
          </Text>
        </div>
      ))}
    </Stack>
  );
}
