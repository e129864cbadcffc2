import { Select, Stack } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi, useRouteContext } from "@tanstack/react-router";
import { useMemo } from "react";
import type { SessionUser } from "../../data/auth/queries";
import { teamOnQuery } from "../../data/statements/queries";
import { date } from "../../lib/format";
import { currentPeriodLabel, datesOf, lastPeriods, today } from "../../lib/periods";
import { DataTable } from "../../ui/DataTable";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { sorted, type TeamSort, teamColumns } from "./TeamTable";
import { teamRows } from "./teamRows";

const route = getRouteApi("/signed-in/team");

/** The picker's choices: today (everyone's current period), then the last days of the three quarters before. */
function dateChoices(): { value: string; label: string }[] {
  const quarters = lastPeriods(currentPeriodLabel("quarter"), 4).slice(0, -1).reverse();
  return [
    { value: today(), label: "Today: current periods" },
    ...quarters.map((quarter) => {
      const last = datesOf(quarter).to;
      return { value: last, label: `${date(last)} (end of ${quarter})` };
    }),
  ];
}

/**
 * A manager's team (their whole subtree; admins and finance: everyone): each person's attainment and
 * earnings in the period of their own plan on a date (a month, a quarter or a year), read a hundred
 * people a request (GET /users/statements).
 */
export function TeamPage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  return <Team viewer={session.user} />;
}

function Team({ viewer }: { viewer: SessionUser }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const choices = useMemo(dateChoices, []);
  const on = search.on ?? choices[0]!.value;
  const sort: TeamSort = { column: search.sort ?? "name", direction: search.order ?? "ascending" };
  const team = useQuery({ ...teamOnQuery(on), placeholderData: keepPreviousData });
  useRenderedMark(team.data !== undefined && !team.isPlaceholderData);
  const rows = team.data ? sorted(teamRows(team.data, viewer), sort) : undefined;
  // A date from a link that is not among the choices is shown as itself.
  const data = choices.some((c) => c.value === on) ? choices : [{ value: on, label: date(on) }, ...choices];

  return (
    <Stack>
      <PageHeader
        title="Team"
        action={
          <Select
            label="Periods on"
            data={data}
            value={on}
            onChange={(value) =>
              value && void navigate({ search: { ...search, on: value === choices[0]!.value ? undefined : value } })
            }
            allowDeselect={false}
            w={260}
          />
        }
      >
        Everyone below you, each in their own plan's period on the date picked (a month, a quarter or a year; without a
        plan, the calendar quarter), with what they have booked and earned in it.
      </PageHeader>
      <DataTable
        label="Team"
        testId="team-table"
        minWidth={980}
        narrowMinWidth={0}
        table={{ striped: true, highlightOnHover: true, verticalSpacing: "sm" }}
        columns={teamColumns(
          sort,
          ({ column, direction }) =>
            void navigate({
              search: {
                ...search,
                sort: column === "name" ? undefined : column,
                order: direction === "ascending" ? undefined : direction,
              },
            }),
        )}
        query={{ error: team.error, refetch: () => void team.refetch() }}
        rows={rows}
        rowKey={(row) => row.user.id}
        rowProps={(row) => ({ "data-user-id": row.user.id, "data-period": row.period })}
        loading="Loading your team"
        empty={{
          title: "No one reports to you yet",
          children: "When people are given you as their manager (or someone below you), they appear here.",
        }}
      />
    </Stack>
  );
}
