import { Autocomplete, Stack, TextInput } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { auditEventsQuery } from "../../data/audit-events/queries";
import { useDraft } from "../../lib/draft";
import { DataTable, listOf } from "../../ui/DataTable";
import { FilterBar } from "../../ui/FilterBar";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { useAuditColumns } from "./AuditTable";
import { AUDITED_RESOURCES, LOG_PAGE_SIZE, localOf, sinceParam } from "./filters";

const route = getRouteApi("/signed-in/audit");

/** Every change the service recorded (who, what, before and after), with the API's filters. */
export function AuditPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { resource, resource_id, actor, since } = search;
  const [draft, setDraft] = useDraft({
    resource: resource ?? "",
    resourceId: resource_id ?? "",
    actor: actor ?? "",
    since: localOf(since),
  });
  const events = useQuery({
    ...auditEventsQuery({ page: search.page ?? 1, resource, resource_id, actor, since, per_page: LOG_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const table = useAuditColumns();
  useRenderedMark(events.isSuccess);
  const set = (field: keyof typeof draft) => (value: string) => setDraft({ ...draft, [field]: value });
  const clear = () => void navigate({ search: {} });

  const apply = () =>
    void navigate({
      search: {
        resource: draft.resource.trim() || undefined,
        resource_id: draft.resourceId.trim() || undefined,
        actor: draft.actor.trim() || undefined,
        since: sinceParam(draft.since),
      },
    });

  return (
    <Stack gap="md">
      <PageHeader title="Audit log">
        Every change, by whom, with what it was before and after. Newest first; never edited.
      </PageHeader>
      <FilterBar label="Filter audit events" onApply={apply} onClear={clear}>
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
      <DataTable
        label="Audit events"
        testId="audit-table"
        minWidth={980}
        table={{ verticalSpacing: "xs", fz: "sm" }}
        {...table}
        rowProps={(event) => ({ "data-event-id": event.id })}
        loading="Loading the audit log"
        loadingLines={10}
        empty={{ title: "No audit events yet", children: "Every change made through the API is recorded here." }}
        filtered={
          resource || resource_id || actor || since
            ? {
                title: "No audit events match",
                children: "Widen the filters: another resource, actor or an earlier time.",
                onClear: clear,
              }
            : undefined
        }
        {...listOf(events, {
          noun: ["event", "events"],
          onPage: (page) => void navigate({ search: { ...search, page } }),
        })}
      />
    </Stack>
  );
}
