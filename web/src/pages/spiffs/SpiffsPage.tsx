import { Alert, Button, Group, Select, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouteContext } from "@tanstack/react-router";
import { useMemo, useState } from "react";
import type { Schemas } from "../../api/types";
import { type Spiff, type SpiffsQuery, spiffsQuery } from "../../data/spiffs/queries";
import { everyoneQuery } from "../../data/users/queries";
import { AnchorLink } from "../../ui/AnchorLink";
import { ListPager } from "../../ui/ListPager";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { EndSpiffDialog } from "./EndSpiffDialog";
import { SpiffForm } from "./SpiffForm";
import { SpiffTable } from "./SpiffTable";

type SpiffFilter = Omit<SpiffsQuery, "per_page">;
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
  const [filter, setFilter] = useState<SpiffFilter>({ page: 1 });
  const [editing, setEditing] = useState<Editing>(null);
  const [saved, setSaved] = useState<Schemas["SpiffWritten"] | null>(null);
  const spiffs = useQuery({
    ...spiffsQuery({ ...filter, per_page: SPIFFS_PAGE_SIZE }),
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

  const body = (() => {
    if (spiffs.isError) return <ErrorState error={spiffs.error} retry={() => void spiffs.refetch()} />;
    if (users.isError) return <ErrorState error={users.error} retry={() => void users.refetch()} />;
    if (spiffs.isPending || users.isPending) return <LoadingState label="Loading SPIFFs" lines={6} />;
    if (spiffs.data.meta.total === 0) {
      return (
        <EmptyState title="No SPIFFs here">
          {canEdit
            ? 'Create one with "New SPIFF": a bonus per deal or a rate of credit, for a window of dates.'
            : "None match this filter."}
        </EmptyState>
      );
    }
    return (
      <>
        <SpiffTable
          spiffs={spiffs.data.data}
          names={names}
          canEdit={canEdit}
          onEdit={(spiff) => setEditing({ kind: "edit", spiff })}
          onEnd={(spiff) => setEditing({ kind: "end", spiff })}
        />
        <ListPager
          meta={spiffs.data.meta}
          noun={["SPIFF", "SPIFFs"]}
          onPage={(page) => setFilter({ ...filter, page })}
        />
      </>
    );
  })();

  return (
    <Stack gap="md">
      <Group justify="space-between" align="end">
        <div>
          <Title order={2}>SPIFFs</Title>
          <Text size="sm" c="dimmed">
            Bonuses for deals closing in a window, on top of the plans{canEdit ? "" : " (read-only)"}.
          </Text>
        </div>
        {canEdit && <Button onClick={() => setEditing({ kind: "new" })}>New SPIFF</Button>}
      </Group>
      <Select
        label="Status"
        data={ACTIVE_OPTIONS}
        value={filter.active ?? "all"}
        onChange={(value) => setFilter({ page: 1, active: value === "true" || value === "false" ? value : undefined })}
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
      {body}
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
