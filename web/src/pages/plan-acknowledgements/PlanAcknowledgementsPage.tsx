import { Select, Stack } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { acknowledgementsQuery, type PlanAcknowledgement } from "../../data/plan-acknowledgements/queries";
import { everyoneQuery } from "../../data/users/queries";
import { useDraft } from "../../lib/draft";
import { dateTime } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { type Column, DataTable, listOf } from "../../ui/DataTable";
import { FilterBar } from "../../ui/FilterBar";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { ACK_STATUSES } from "./schemas";

const route = getRouteApi("/signed-in/plan-acknowledgements");
const PAGE_SIZE = 25;
const ANY = "all";
const STATUS_OPTIONS = [
  { value: ANY, label: "Every status" },
  { value: "pending", label: "Not acknowledged" },
  { value: "acknowledged", label: "Acknowledged" },
];

const COLUMNS: Column<PlanAcknowledgement>[] = [
  {
    header: "Person",
    id: "person",
    rowHeader: true,
    cell: (ack) => (
      <AnchorLink to="/people/$userId" params={{ userId: ack.user_id }}>
        {ack.user_name}
      </AnchorLink>
    ),
  },
  {
    header: "Plan",
    id: "plan",
    cell: (ack) => (
      <AnchorLink to="/acknowledgements/$acknowledgementId" params={{ acknowledgementId: ack.id }}>
        {ack.plan_name}
      </AnchorLink>
    ),
  },
  { header: "Version", id: "version", numeric: true, cell: (ack) => ack.plan_version },
  {
    header: "Status",
    id: "status",
    cell: (ack) => (ack.status === "pending" ? "Not acknowledged" : "Acknowledged"),
  },
  {
    header: "Asked on",
    id: "asked",
    props: () => ({ style: { whiteSpace: "nowrap" } }),
    cell: (ack) => dateTime(ack.created_at),
  },
  {
    header: "Acknowledged on",
    id: "acknowledged",
    props: () => ({ style: { whiteSpace: "nowrap" } }),
    cell: (ack) => (ack.acknowledged_at ? dateTime(ack.acknowledged_at) : "—"),
  },
];

/** Admins and finance: who was asked to acknowledge which plan version, and who has not. */
export function PlanAcknowledgementsPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { status, user } = search;
  const [draft, setDraft] = useDraft({ status: status ?? ANY, user: user ?? "" });
  const list = useQuery({
    ...acknowledgementsQuery({ page: search.page ?? 1, per_page: PAGE_SIZE, status, user_id: user }),
    placeholderData: keepPreviousData,
  });
  const everyone = useQuery(everyoneQuery());
  useRenderedMark(list.isSuccess);
  const clear = () => void navigate({ search: {} });
  return (
    <Stack gap="md">
      <PageHeader title="Plan acknowledgements">
        Who was asked to read and acknowledge which plan version, and who has not yet. Acknowledgement is a record of
        receipt: commissions are calculated and paid the same either way.
      </PageHeader>
      <FilterBar
        label="Filter plan acknowledgements"
        onApply={() =>
          void navigate({
            search: { status: ACK_STATUSES.find((s) => s === draft.status), user: draft.user || undefined },
          })
        }
        onClear={clear}
      >
        <Select
          label="Status"
          data={STATUS_OPTIONS}
          value={draft.status}
          onChange={(value) => value && setDraft({ ...draft, status: value })}
          allowDeselect={false}
          w={190}
        />
        <Select
          label="Person"
          placeholder="Everyone"
          data={(everyone.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          value={draft.user || null}
          onChange={(value) => setDraft({ ...draft, user: value ?? "" })}
          searchable
          clearable
          w={240}
        />
      </FilterBar>
      <DataTable
        label="Plan acknowledgements"
        testId="plan-acknowledgements"
        minWidth={820}
        table={{ verticalSpacing: "sm", fz: "sm", striped: true }}
        columns={COLUMNS}
        rowProps={(ack) => ({ "data-ack-id": ack.id })}
        loading="Loading plan acknowledgements"
        empty={{
          title: "Nobody has been asked yet",
          children:
            "A person is asked to acknowledge a plan when it is assigned to them, and again at each new version.",
        }}
        filtered={
          status || user
            ? {
                title: "No acknowledgements match",
                children: "Nobody matches this status and person.",
                onClear: clear,
              }
            : undefined
        }
        {...listOf(list, {
          noun: ["acknowledgement", "acknowledgements"],
          onPage: (page) => void navigate({ search: { ...search, page } }),
        })}
      />
    </Stack>
  );
}
