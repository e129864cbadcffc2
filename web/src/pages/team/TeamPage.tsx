import { Select, Stack } from "@mantine/core";
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { getRouteApi, useRouteContext } from "@tanstack/react-router";
import { useMemo } from "react";
import { statementQuery } from "../../data/statements/queries";
import { everyoneQuery, type User } from "../../data/users/queries";
import { currentPeriodLabel, lastPeriods } from "../../lib/periods";
import { DataTable } from "../../ui/DataTable";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { sorted, type TeamSort, teamColumns } from "./TeamTable";
import { teamRows } from "./teamRows";

const route = getRouteApi("/signed-in/team");

/** A manager's team (their whole subtree; admins and finance: everyone): attainment and earnings this period. */
export function TeamPage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  return <Team viewer={session.user} />;
}

function Team({ viewer }: { viewer: User }) {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const periods = useMemo(() => lastPeriods(currentPeriodLabel("quarter"), 4).reverse(), []);
  const period = search.period ?? periods[0]!;
  const sort: TeamSort = { column: search.sort ?? "name", direction: search.order ?? "ascending" };
  const users = useQuery(everyoneQuery());
  const people = useMemo(() => (users.data ?? []).filter((u) => u.id !== viewer.id), [users.data, viewer.id]);
  const statements = useQueries({
    queries: people.map((p) => ({ ...statementQuery(p.id, period), placeholderData: keepPreviousData })),
  });
  const failed = users.error ?? statements.find((s) => s.error)?.error;
  const loading = users.isPending || statements.some((s) => s.isPending);
  useRenderedMark(!loading && !failed);

  const retry = () => {
    if (users.error) void users.refetch();
    for (const query of statements) if (query.error) void query.refetch();
  };
  const rows = loading
    ? undefined
    : sorted(
        teamRows(
          people,
          users.data ?? [],
          statements.map((s) => s.data!),
          viewer,
        ),
        sort,
      );

  return (
    <Stack>
      <PageHeader
        title="Team"
        action={
          <Select
            label="Period"
            data={periods.includes(period) ? periods : [period, ...periods]}
            value={period}
            onChange={(value) =>
              value && void navigate({ search: { ...search, period: value === periods[0] ? undefined : value } })
            }
            allowDeselect={false}
            w={140}
          />
        }
      >
        Everyone below you, with what they have booked and earned in the period.
      </PageHeader>
      <DataTable
        label="Team"
        testId="team-table"
        minWidth={820}
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
        query={{ error: failed ?? null, refetch: retry }}
        rows={rows}
        rowKey={(row) => row.user.id}
        rowProps={(row) => ({ "data-user-id": row.user.id })}
        loading="Loading your team"
        empty={{
          title: "No one reports to you yet",
          children: "When people are given you as their manager (or someone below you), they appear here.",
        }}
      />
    </Stack>
  );
}
