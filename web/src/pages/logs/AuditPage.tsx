import { Autocomplete, Stack, Text, TextInput, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type AuditEventsQuery, auditEventsQuery } from "../../data/audit-events/queries";
import { FilterBar } from "../../ui/FilterBar";
import { ListPager } from "../../ui/ListPager";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { AuditTable } from "./AuditTable";
import { AUDITED_RESOURCES, LOG_PAGE_SIZE, sinceParam } from "./filters";

type AuditFilter = Omit<AuditEventsQuery, "per_page">;

const EMPTY = { resource: "", resourceId: "", actor: "", since: "" };

/** Every change the service recorded (who, what, before and after), with the API's filters. */
export function AuditPage() {
  const [draft, setDraft] = useState(EMPTY);
  const [filter, setFilter] = useState<AuditFilter>({ page: 1 });
  const events = useQuery({
    ...auditEventsQuery({ ...filter, per_page: LOG_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  useRenderedMark(events.isSuccess);
  const set = (field: keyof typeof EMPTY) => (value: string) => setDraft({ ...draft, [field]: value });

  const apply = () =>
    setFilter({
      page: 1,
      resource: draft.resource.trim() || undefined,
      resource_id: draft.resourceId.trim() || undefined,
      actor: draft.actor.trim() || undefined,
      since: sinceParam(draft.since),
    });

  return (
    <Stack gap="md">
      <div>
        <Title order={2}>Audit log</Title>
        <Text size="sm" c="dimmed">
          Every change, by whom, with what it was before and after. Newest first; never edited.
        </Text>
      </div>
      <FilterBar
        label="Filter audit events"
        onApply={apply}
        onClear={() => {
          setDraft(EMPTY);
          setFilter({ page: 1 });
        }}
      >
        <Autocomplete
          label="Resource"
          data={AUDITED_RESOURCES}
          value={draft.resource}
          onChange={set("resource")}
          w={160}
        />
        <TextInput
          label="Resource id"
          value={draft.resourceId}
          onChange={(e) => set("resourceId")(e.currentTarget.value)}
          placeholder="deal_…"
          w={210}
        />
        <TextInput
          label="Actor"
          value={draft.actor}
          onChange={(e) => set("actor")(e.currentTarget.value)}
          placeholder="key_…, usr_… or owner-cli"
          w={210}
        />
        <TextInput
          label="Since"
          type="datetime-local"
          value={draft.since}
          onChange={(e) => set("since")(e.currentTarget.value)}
          w={210}
        />
      </FilterBar>
      {events.isError && <ErrorState error={events.error} retry={() => void events.refetch()} />}
      {events.isPending && <LoadingState label="Loading the audit log" lines={10} />}
      {events.isSuccess && events.data.meta.total === 0 && (
        <EmptyState title="No audit events match">
          Widen the filters: another resource, actor or an earlier time.
        </EmptyState>
      )}
      {events.isSuccess && events.data.meta.total > 0 && (
        <>
          <AuditTable events={events.data.data} />
          <ListPager
            meta={events.data.meta}
            noun={["event", "events"]}
            onPage={(page) => setFilter({ ...filter, page })}
          />
        </>
      )}
    </Stack>
  );
}
