import { Alert, Button, Select, Stack } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi, useRouteContext } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import type { Schemas } from "../../api/types";
import { type Spiff, spiffsQuery } from "../../data/spiffs/queries";
import { everyoneQuery } from "../../data/users/queries";
import { AnchorLink } from "../../ui/AnchorLink";
import { DataTable } from "../../ui/DataTable";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { EndSpiffDialog } from "./EndSpiffDialog";
import { SpiffForm } from "./SpiffForm";
import { spiffColumns } from "./SpiffTable";

const route = getRouteApi("/signed-in/spiffs");
const SPIFFS_PAGE_SIZE = 25;

const ACTIVE_OPTIONS = [
  { value: "all", label: "Active and inactive" },
  { value: "true", label: "Active" },
  { value: "false", label: "Inactive" },
];

type Editing = { kind: "new" } | { kind: "edit"; spiff: Spiff } | { kind: "end"; spiff: Spiff } | null;

/** SPIFFs: short-term bonuses on top of plans. Admins create, edit and end them; finance reads. */
export function SpiffsPage() {
  const { session } = useRouteContext({ from: "/signed-in" });
  const canEdit = session.user.role === "admin";
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const active = search.active === undefined ? undefined : search.active ? "true" : "false";
  const [editing, setEditing] = useState<Editing>(null);
  const [saved, setSaved] = useState<Schemas["SpiffWritten"] | null>(null);
  const spiffs = useQuery({
    ...spiffsQuery({ page: search.page ?? 1, active, per_page: SPIFFS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const users = useQuery(everyoneQuery());
  const people = useMemo(() => (users.data ?? []).map((u) => ({ id: u.id, name: u.name })), [users.data]);
  const names = useMemo(() => new Map(people.map((p) => [p.id, p.name])), [people]);
  useRenderedMark(spiffs.isSuccess && users.isSuccess);

  const done = (written: Schemas["SpiffWritten"]) => {
    setEditing(null);
    setSaved(written);
  };

  return (
    <Stack gap="md">
      <PageHeader
        title="SPIFFs"
        action={canEdit && <Button onClick={() => setEditing({ kind: "new" })}>New SPIFF</Button>}
      >
        Bonuses for deals closing in a window, on top of the plans{canEdit ? "" : " (read-only)"}.
      </PageHeader>
      <Select
        label="Status"
        data={ACTIVE_OPTIONS}
        value={active ?? "all"}
        onChange={(value) => void navigate({ search: { active: value === "all" ? undefined : value === "true" } })}
        allowDeselect={false}
        w={220}
      />
      {saved && (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setSaved(null)}>
          Saved {saved.name}.{" "}
          {saved.recalculation_job_id ? (
            <>
              The pending deals in its window are being recalculated in the background:{" "}
              <AnchorLink to="/jobs">see Jobs</AnchorLink>.
            </>
          ) : (
            "The pending deals in its window are recalculated."
          )}
        </Alert>
      )}
      <DataTable
        label="SPIFFs"
        testId="spiff-table"
        minWidth={canEdit ? 980 : 820}
        table={{ striped: true, verticalSpacing: "sm" }}
        columns={spiffColumns({
          names,
          canEdit,
          onEdit: (spiff) => setEditing({ kind: "edit", spiff }),
          onEnd: (spiff) => setEditing({ kind: "end", spiff }),
        })}
        query={{ error: spiffs.error ?? users.error, refetch: () => Promise.all([spiffs.refetch(), users.refetch()]) }}
        rows={users.data && spiffs.data?.data}
        rowProps={(spiff) => ({ "data-spiff-id": spiff.id })}
        loading="Loading SPIFFs"
        empty={{
          title: "No SPIFFs yet",
          children: canEdit
            ? 'Create one with "New SPIFF": a bonus per deal or a rate of credit, for a window of dates.'
            : "None have been made.",
        }}
        filtered={
          active
            ? {
                title: "No SPIFFs here",
                children: "None match this filter.",
                onClear: () => void navigate({ search: {} }),
              }
            : undefined
        }
        pager={{
          meta: spiffs.data?.meta,
          noun: ["SPIFF", "SPIFFs"],
          onPage: (page) => void navigate({ search: { ...search, page } }),
        }}
      />
      {editing?.kind === "new" && <SpiffForm people={people} onSaved={done} onClose={() => setEditing(null)} />}
      {editing?.kind === "edit" && (
        <SpiffForm spiff={editing.spiff} people={people} onSaved={done} onClose={() => setEditing(null)} />
      )}
      {editing?.kind === "end" && (
        <EndSpiffDialog spiff={editing.spiff} onEnded={done} onClose={() => setEditing(null)} />
      )}
    </Stack>
  );
}
