import { Button, Code, SimpleGrid, Stack, Text } from "@mantine/core";
import { useState } from "react";
import type { AuditEvent } from "../../data/audit-events/queries";
import { dateTime } from "../../lib/format";
import type { Column } from "../../ui/DataTable";

const ACTOR_TYPES = { api_key: "key", user: "person", owner: "owner CLI" } as const;

/** The audit log's columns; each row opens to its before and after, as the API stored them. */
export function useAuditColumns() {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const columns: Column<AuditEvent>[] = [
    {
      header: "When",
      props: () => ({ style: { whiteSpace: "nowrap" } }),
      cell: (event) => (
        <>
          {dateTime(event.created_at)}
          {event.request_id && (
            <Text size="xs" c="gray.7">
              {event.request_id}
            </Text>
          )}
        </>
      ),
    },
    {
      header: "Who",
      cell: (event) => (
        <>
          {event.actor.name}
          <Text size="xs" c="gray.7">
            {ACTOR_TYPES[event.actor.type]}
          </Text>
          {event.actor.id && (
            <Text size="xs" c="gray.7">
              {event.actor.id}
            </Text>
          )}
        </>
      ),
    },
    { header: "Action", id: "action", cell: (event) => <Code>{event.action}</Code> },
    {
      header: "Resource",
      id: "resource",
      cell: (event) => (
        <>
          {event.resource}
          <Text size="xs" c="gray.7">
            {event.resource_id}
          </Text>
        </>
      ),
    },
    {
      header: "Changes",
      cell: (event) => {
        const expanded = open.has(event.id);
        return (
          <Button
            size="compact-xs"
            variant="subtle"
            aria-expanded={expanded}
            aria-controls={`changes-${event.id}`}
            onClick={() => toggle(event.id)}
            aria-label={`${expanded ? "Hide" : "Show"} before and after of ${event.action} ${event.resource_id}`}
          >
            {expanded ? "Hide" : "Show"}
          </Button>
        );
      },
    },
  ];
  const detail = (event: AuditEvent) =>
    open.has(event.id) ? (
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Snapshot title="Before" value={event.before} />
        <Snapshot title="After" value={event.after} />
      </SimpleGrid>
    ) : null;
  const detailProps = (event: AuditEvent) => ({ id: `changes-${event.id}`, "data-changes-of": event.id });
  return { columns, detail, detailProps };
}

function Snapshot({ title, value }: { title: string; value: unknown }) {
  return (
    <Stack gap={4}>
      <Text size="xs" fw={700} tt="uppercase" c="gray.7">
        {title}
      </Text>
      {value === null || value === undefined ? (
        <Text size="sm" c="gray.7">
          Nothing
        </Text>
      ) : (
        <Code
          block
          tabIndex={0}
          aria-label={title}
          data-testid={`snapshot-${title.toLowerCase()}`}
          style={{ maxHeight: 320, overflow: "auto" }}
        >
          {JSON.stringify(value, null, 2)}
        </Code>
      )}
    </Stack>
  );
}
