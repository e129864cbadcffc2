import { NumberInput, Stack, TextInput } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { requestLogsQuery } from "../../data/request-logs/queries";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import { useDraft } from "../../lib/draft";
import { DataTable, listOf } from "../../ui/DataTable";
import { FilterBar } from "../../ui/FilterBar";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { LOG_PAGE_SIZE, localOf, sinceParam } from "./filters";
import { requestColumns } from "./RequestLogTable";

const route = getRouteApi("/signed-in/request-log");

/** Every /api/v1 and /mcp request of the last 30 days, with the API's filters. */
export function RequestLogPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { key_id, user_id, status, since } = search;
  const [draft, setDraft] = useDraft({
    keyId: key_id ?? "",
    userId: user_id ?? "",
    status: (status ?? "") as number | string,
    since: localOf(since),
  });
  const requests = useQuery({
    ...requestLogsQuery({ page: search.page ?? 1, key_id, user_id, status, since, per_page: LOG_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  // A person who called is shown by name (admins see everyone); the id stays beside it.
  const names = useQuery({ ...everyoneQuery(), select: namesOf });
  useRenderedMark(requests.isSuccess);
  const clear = () => void navigate({ search: {} });

  const apply = () =>
    void navigate({
      search: {
        key_id: draft.keyId.trim() || undefined,
        user_id: draft.userId.trim() || undefined,
        status: draft.status === "" ? undefined : Number(draft.status),
        since: sinceParam(draft.since),
      },
    });

  return (
    <Stack gap="md">
      <PageHeader title="Request log">
        Every API and MCP request of the last 30 days: who made it, what it asked and how it was answered.
      </PageHeader>
      <FilterBar label="Filter requests" onApply={apply} onClear={clear}>
        <TextInput
          label="API key"
          value={draft.keyId}
          onChange={(e) => setDraft({ ...draft, keyId: e.currentTarget.value })}
          placeholder="key_…"
          w={220}
        />
        <TextInput
          label="Person"
          value={draft.userId}
          onChange={(e) => setDraft({ ...draft, userId: e.currentTarget.value })}
          placeholder="usr_…"
          w={220}
        />
        <NumberInput
          label="Status"
          value={draft.status}
          onChange={(value) => setDraft({ ...draft, status: value })}
          min={100}
          max={599}
          allowDecimal={false}
          w={110}
        />
        <TextInput
          label="Since"
          type="datetime-local"
          value={draft.since}
          onChange={(e) => setDraft({ ...draft, since: e.currentTarget.value })}
          w={220}
        />
      </FilterBar>
      <DataTable
        label="Requests"
        testId="request-log-table"
        minWidth={1080}
        narrowMinWidth={0}
        table={{ verticalSpacing: "xs", fz: "sm", striped: true }}
        columns={requestColumns(names.data)}
        rowProps={(row) => ({ "data-request-id": row.id })}
        loading="Loading the request log"
        loadingLines={10}
        empty={{ title: "No requests yet", children: "Requests to the API and MCP are logged here for 30 days." }}
        filtered={
          key_id || user_id || status || since
            ? {
                title: "No requests match",
                children: "Widen the filters: another key or person, status, or an earlier time.",
                onClear: clear,
              }
            : undefined
        }
        {...listOf(requests, {
          noun: ["request", "requests"],
          onPage: (page) => void navigate({ search: { ...search, page } }),
        })}
      />
    </Stack>
  );
}
