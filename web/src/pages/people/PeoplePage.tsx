import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouteContext } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import { everyoneQuery, namesOf, usersQuery } from "../../data/users/queries";
import { ListPager } from "../../ui/ListPager";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { CreatePersonDialog } from "./CreatePersonDialog";
import { PeopleFilters } from "./PeopleFilters";
import { PeopleTable } from "./PeopleTable";
import type { PeopleFilter } from "./schemas";

const PEOPLE_PAGE_SIZE = 25;

/** Everyone in the company with role, manager and status; admins invite, create and change them. */
export function PeoplePage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const canEdit = session.user.role === "admin";
  const [filter, setFilter] = useState<PeopleFilter>({ page: 1 });
  const [creating, setCreating] = useState(false);
  const people = useQuery({
    ...usersQuery({ ...filter, per_page: PEOPLE_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  // Everyone, for manager names and the manager picker (the same list the team page reads).
  const everyone = useQuery(everyoneQuery());
  const names = useMemo(() => namesOf(everyone.data ?? []), [everyone.data]);
  useRenderedMark(people.isSuccess && everyone.isSuccess);

  const body = (() => {
    if (people.isError) return <ErrorState error={people.error} retry={() => void people.refetch()} />;
    if (everyone.isError) return <ErrorState error={everyone.error} retry={() => void everyone.refetch()} />;
    if (people.isPending || everyone.isPending) return <LoadingState label="Loading people" lines={8} />;
    if (people.data.meta.total === 0) {
      return (
        <EmptyState title="No one matches">
          Nobody has this role, status or email. Clear a filter to see more people.
        </EmptyState>
      );
    }
    return (
      <>
        <PeopleTable
          people={people.data.data}
          everyone={everyone.data}
          names={names}
          canEdit={canEdit}
          me={session.user.id}
        />
        <ListPager
          meta={people.data.meta}
          noun={["person", "people"]}
          onPage={(page) => setFilter({ ...filter, page })}
        />
      </>
    );
  })();

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <div>
          <Title order={2}>People</Title>
          <Text size="sm" c="dimmed">
            {canEdit
              ? "Everyone who can sign in or earn commissions. Invite them, change their role or manager, or sign them out."
              : "Everyone who can sign in or earn commissions (read-only)."}
          </Text>
        </div>
        {canEdit && <Button onClick={() => setCreating(true)}>New person</Button>}
      </Group>
      <PeopleFilters filter={filter} onChange={(next) => setFilter({ ...next, page: 1 })} />
      {body}
      {canEdit && creating && <CreatePersonDialog everyone={everyone.data ?? []} onClose={() => setCreating(false)} />}
    </Stack>
  );
}
