import { NumberInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type RequestLogsQuery, requestLogsQuery } from "../../data/request-logs/queries";
import { FilterBar } from "../../ui/FilterBar";
import { ListPager } from "../../ui/ListPager";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { LOG_PAGE_SIZE, sinceParam } from "./filters";
import { RequestLogTable } from "./RequestLogTable";

type RequestLogFilter = Omit<RequestLogsQuery, "per_page">;

const EMPTY = { keyId: "", userId: "", status: "" as number | string, since: "" };

/** Every /api/v1 and /mcp request of the last 30 days, with the API's filters. */
export function RequestLogPage() {
  const [draft, setDraft] = useState(EMPTY);
  const [filter, setFilter] = useState<RequestLogFilter>({ page: 1 });
  const requests = useQuery({
    ...requestLogsQuery({ ...filter, per_page: LOG_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  useRenderedMark(requests.isSuccess);

  const apply = () =>
    setFilter({
      page: 1,
      key_id: draft.keyId.trim() || undefined,
      user_id: draft.userId.trim() || undefined,
      status: draft.status === "" ? undefined : Number(draft.status),
      since: sinceParam(draft.since),
    });

  return (
    <Stack gap="md">
      <div>
        <Title order={2}>Request log</Title>
        <Text size="sm" c="dimmed">
          Every API and MCP request of the last 30 days: who made it, what it asked and how it was answered.
        </Text>
      </div>
      <FilterBar
        label="Filter requests"
        onApply={apply}
        onClear={() => {
          setDraft(EMPTY);
          setFilter({ page: 1 });
        }}
      >
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
          onChange={(status) => setDraft({ ...draft, status })}
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
      {requests.isError && <ErrorState error={requests.error} retry={() => void requests.refetch()} />}
      {requests.isPending && <LoadingState label="Loading the request log" lines={10} />}
      {requests.isSuccess && requests.data.meta.total === 0 && (
        <EmptyState title="No requests match">
          Widen the filters: another key or person, status, or an earlier time.
        </EmptyState>
      )}
      {requests.isSuccess && requests.data.meta.total > 0 && (
        <>
          <RequestLogTable rows={requests.data.data} />
          <ListPager
            meta={requests.data.meta}
            noun={["request", "requests"]}
            onPage={(page) => setFilter({ ...filter, page })}
          />
        </>
      )}
    </Stack>
  );
}
