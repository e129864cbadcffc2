import { Group, Select, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { useRouteContext } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import { statementQuery } from "../../data/statements/queries";
import { everyoneQuery, type User } from "../../data/users/queries";
import { currentPeriodLabel, lastPeriods } from "../../lib/periods";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { TeamTable } from "./TeamTable";
import { teamRows } from "./teamRows";

/** A manager's team (their whole subtree; admins and finance: everyone): attainment and earnings this period. */
export function TeamPage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  return <Team viewer={session.user} />;
}

function Team({ viewer }: { viewer: User }) {
  const periods = useMemo(() => lastPeriods(currentPeriodLabel("quarter"), 4).reverse(), []);
  const [period, setPeriod] = useState(periods[0]!);
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

  const body = (() => {
    if (failed) return <ErrorState error={failed} retry={retry} />;
    if (loading) return <LoadingState label="Loading your team" lines={6} />;
    if (people.length === 0) {
      return (
        <EmptyState title="No one reports to you yet">
          When people are given you as their manager (or someone below you), they appear here.
        </EmptyState>
      );
    }
    const rows = teamRows(
      people,
      users.data ?? [],
      statements.map((s) => s.data!),
      viewer,
    );
    return <TeamTable rows={rows} />;
  })();

  return (
    <Stack>
      <Group justify="space-between" align="end">
        <div>
          <Title order={2}>Team</Title>
          <Text size="sm" c="dimmed">
            Everyone below you, with what they have booked and earned in the period.
          </Text>
        </div>
        <Select
          label="Period"
          data={periods}
          value={period}
          onChange={(value) => value && setPeriod(value)}
          allowDeselect={false}
          w={140}
        />
      </Group>
      {body}
    </Stack>
  );
}
