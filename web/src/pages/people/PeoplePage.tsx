import { Button, Stack } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi, useRouteContext } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import { everyoneQuery, namesOf, usersQuery } from "../../data/users/queries";
import { DataTable } from "../../ui/DataTable";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { CreatePersonDialog } from "./CreatePersonDialog";
import { PeopleFilters } from "./PeopleFilters";
import { usePeopleColumns } from "./PeopleTable";

const route = getRouteApi("/signed-in/people");
const PEOPLE_PAGE_SIZE = 25;

/** Everyone in the company with role, manager and status; admins invite, create and change them. */
export function PeoplePage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const canEdit = session.user.role === "admin";
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [creating, setCreating] = useState(false);
  const { role, email } = search;
  const active = search.active === undefined ? undefined : search.active ? "true" : "false";
  const people = useQuery({
    ...usersQuery({ page: search.page ?? 1, role, active, email, per_page: PEOPLE_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  // Everyone, for manager names and the manager picker (the same list the team page reads).
  const everyone = useQuery(everyoneQuery());
  const names = useMemo(() => namesOf(everyone.data ?? []), [everyone.data]);
  const { columns, dialog } = usePeopleColumns({ everyone: everyone.data ?? [], names, canEdit, me: session.user.id });
  useRenderedMark(people.isSuccess && everyone.isSuccess);
  const clear = () => void navigate({ search: {} });

  return (
    <Stack gap="md">
      <PageHeader title="People" action={canEdit && <Button onClick={() => setCreating(true)}>New person</Button>}>
        {canEdit
          ? "Everyone who can sign in or earn commissions. Invite them, change their role or manager, or sign them out."
          : "Everyone who can sign in or earn commissions (read-only)."}
      </PageHeader>
      <PeopleFilters filter={search} onChange={(next) => void navigate({ search: { ...next, page: undefined } })} />
      <DataTable
        label="People"
        testId="people-table"
        minWidth={canEdit ? 860 : 720}
        narrowMinWidth={0}
        table={{ striped: true, highlightOnHover: true, verticalSpacing: "sm" }}
        columns={columns}
        query={{
          error: people.error ?? everyone.error,
          refetch: () => Promise.all([people.refetch(), everyone.refetch()]),
        }}
        rows={everyone.data && people.data?.data}
        rowProps={(user) => ({ "data-user-id": user.id })}
        loading="Loading people"
        loadingLines={8}
        empty={{ title: "No people yet", children: canEdit ? 'Add the first with "New person".' : undefined }}
        filtered={
          role || active || email
            ? {
                title: "No one matches",
                children: "Nobody has this role, status or email. Clear a filter to see more people.",
                onClear: clear,
              }
            : undefined
        }
        pager={{
          meta: people.data?.meta,
          noun: ["person", "people"],
          onPage: (page) => void navigate({ search: { ...search, page } }),
        }}
      />
      {dialog}
      {canEdit && creating && <CreatePersonDialog everyone={everyone.data ?? []} onClose={() => setCreating(false)} />}
    </Stack>
  );
}
