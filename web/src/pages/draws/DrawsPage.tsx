import { Alert, Button, Group, Select, Stack, TextInput } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi, useRouteContext } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import { type Draw, drawsQuery } from "../../data/draws/queries";
import { everyoneQuery } from "../../data/users/queries";
import { money } from "../../lib/format";
import { DataTable } from "../../ui/DataTable";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { EndDrawDialog, ForgiveDrawDialog } from "./DrawActions";
import { DrawDrawer } from "./DrawDrawer";
import { DrawForm } from "./DrawForm";
import { drawColumns } from "./DrawTable";
import { guaranteeInWords } from "./draw-text";

const route = getRouteApi("/signed-in/draws");
const DRAWS_PAGE_SIZE = 25;

const STATUS_OPTIONS = [
  { value: "all", label: "Active and ended" },
  { value: "active", label: "Active" },
  { value: "ended", label: "Ended" },
];

type Acting = { kind: "new" } | { kind: "end"; draw: Draw } | { kind: "forgive"; draw: Draw } | null;

/**
 * Draws (API.md §18): a guaranteed minimum per month or quarter, settled by payout runs. Finance and
 * admins create, end and forgive; a rep or manager reads their own (and their team's) read-only.
 */
export function DrawsPage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const canEdit = session.user.role === "finance" || session.user.role === "admin";
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [acting, setActing] = useState<Acting>(null);
  const [done, setDone] = useState<string | null>(null);
  const draws = useQuery({
    ...drawsQuery({
      page: search.page ?? 1,
      per_page: DRAWS_PAGE_SIZE,
      user_id: search.user,
      currency: search.currency,
      status: search.status ? [search.status] : undefined,
    }),
    placeholderData: keepPreviousData,
  });
  // Only finance and admins list everyone (GET /users); a rep or manager reads names they know.
  const users = useQuery({ ...everyoneQuery(), enabled: canEdit });
  const people = useMemo(() => (users.data ?? []).map((u) => ({ id: u.id, name: u.name })), [users.data]);
  const names = useMemo(() => new Map(people.map((p) => [p.id, p.name])), [people]);
  const nameOf = (id: string) => (id === session.user.id ? session.user.name : (names.get(id) ?? id));
  useRenderedMark(draws.isSuccess && (!canEdit || users.isSuccess));
  const [currency, setCurrency] = useState(search.currency ?? "");

  const filtered = Boolean(search.user || search.currency || search.status);
  const acted = (message: string) => {
    setActing(null);
    setDone(message);
  };

  return (
    <Stack gap="md">
      <PageHeader
        title="Draws"
        action={canEdit && <Button onClick={() => setActing({ kind: "new" })}>New draw</Button>}
      >
        A guaranteed minimum per month or quarter: a payout run advances what earnings fall short of it, and a
        recoverable draw's balance is recovered from later earnings{canEdit ? "" : " (read-only)"}.
      </PageHeader>
      <Group align="flex-end" gap="sm" wrap="wrap">
        {canEdit && (
          <Select
            label="Person"
            placeholder="Everyone"
            searchable
            clearable
            data={people.map((p) => ({ value: p.id, label: p.name }))}
            value={search.user ?? null}
            onChange={(value) => void navigate({ search: { ...search, user: value ?? undefined, page: undefined } })}
            w={240}
          />
        )}
        <TextInput
          label="Currency"
          placeholder="Any"
          maxLength={3}
          w={120}
          value={currency}
          onChange={(e) => setCurrency(e.currentTarget.value)}
          onBlur={() =>
            void navigate({
              search: { ...search, currency: currency.trim().toUpperCase() || undefined, page: undefined },
            })
          }
          onKeyDown={(e) => {
            if (e.key === "Enter")
              void navigate({
                search: { ...search, currency: currency.trim().toUpperCase() || undefined, page: undefined },
              });
          }}
        />
        <Select
          label="Status"
          data={STATUS_OPTIONS}
          value={search.status ?? "all"}
          allowDeselect={false}
          onChange={(value) =>
            void navigate({
              search: {
                ...search,
                status: value === "active" || value === "ended" ? value : undefined,
                page: undefined,
              },
            })
          }
          w={200}
        />
      </Group>
      {done && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setDone(null)}>
          {done}
        </Alert>
      )}
      <DataTable
        label="Draws"
        testId="draw-table"
        minWidth={860}
        table={{ striped: true, verticalSpacing: "sm" }}
        columns={drawColumns({ nameOf, onOpen: (draw) => void navigate({ search: { ...search, draw: draw.id } }) })}
        query={{ error: draws.error ?? users.error, refetch: () => Promise.all([draws.refetch(), users.refetch()]) }}
        rows={(!canEdit || users.data) && draws.data ? draws.data.data : undefined}
        rowProps={(draw) => ({ "data-draw-id": draw.id })}
        loading="Loading draws"
        empty={{
          title: "No draws yet",
          children: canEdit
            ? 'Create one with "New draw": a guaranteed minimum per month or quarter for a person.'
            : "You have no draw.",
        }}
        filtered={
          filtered
            ? {
                title: "No draws here",
                children: "None match these filters.",
                onClear: () => {
                  setCurrency("");
                  void navigate({ search: {} });
                },
              }
            : undefined
        }
        pager={{
          meta: draws.data?.meta,
          noun: ["draw", "draws"],
          onPage: (page) => void navigate({ search: { ...search, page } }),
        }}
      />
      <DrawDrawer
        drawId={search.draw}
        nameOf={nameOf}
        canEdit={canEdit}
        onEnd={(draw) => setActing({ kind: "end", draw })}
        onForgive={(draw) => setActing({ kind: "forgive", draw })}
        onClose={() => void navigate({ search: { ...search, draw: undefined } })}
      />
      {acting?.kind === "new" && (
        <DrawForm
          people={people}
          onSaved={(draw) => {
            acted(`Created the draw of ${nameOf(draw.user_id)}: ${guaranteeInWords(draw)}.`);
            void navigate({ search: { ...search, draw: draw.id } });
          }}
          onClose={() => setActing(null)}
        />
      )}
      {acting?.kind === "end" && (
        <EndDrawDialog
          draw={acting.draw}
          onDone={(draw) => acted(`Ended the draw of ${nameOf(draw.user_id)}: ${guaranteeInWords(draw)}.`)}
          onClose={() => setActing(null)}
        />
      )}
      {acting?.kind === "forgive" && (
        <ForgiveDrawDialog
          draw={acting.draw}
          onDone={(draw) =>
            acted(
              `Forgave on ${nameOf(draw.user_id)}'s draw: the balance is now ${money(draw.balance, draw.currency)}.`,
            )
          }
          onClose={() => setActing(null)}
        />
      )}
    </Stack>
  );
}
