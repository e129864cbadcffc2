import { Button, Code, SimpleGrid, Stack, Table, Text } from "@mantine/core";
import { Fragment, useState } from "react";
import type { AuditEvent } from "../../data/audit-events/queries";
import { dateTime } from "../../lib/format";
import { ScrollTable } from "../../ui/ScrollTable";

const ACTOR_TYPES = { api_key: "key", user: "person", owner: "owner CLI" } as const;

/** Audit events, newest first; each row opens to its before and after, as the API stored them. */
export function AuditTable({ events }: { events: AuditEvent[] }) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <ScrollTable minWidth={980} label="Audit events">
      <Table verticalSpacing="xs" fz="sm" aria-label="Audit events" data-testid="audit-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">When</Table.Th>
            <Table.Th scope="col">Who</Table.Th>
            <Table.Th scope="col">Action</Table.Th>
            <Table.Th scope="col">Resource</Table.Th>
            <Table.Th scope="col">Changes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => {
            const expanded = open.has(event.id);
            return (
              <Fragment key={event.id}>
                <Table.Tr data-event-id={event.id}>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>
                    {dateTime(event.created_at)}
                    {event.request_id && (
                      <Text size="xs" c="gray.7">
                        {event.request_id}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {event.actor.name}
                    <Text size="xs" c="gray.7">
                      {ACTOR_TYPES[event.actor.type]}
                    </Text>
                    {event.actor.id && (
                      <Text size="xs" c="gray.7">
                        {event.actor.id}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td data-col="action">
                    <Code>{event.action}</Code>
                  </Table.Td>
                  <Table.Td data-col="resource">
                    {event.resource}
                    <Text size="xs" c="gray.7">
                      {event.resource_id}
                    </Text>
                  </Table.Td>
                  <Table.Td>
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
                  </Table.Td>
                </Table.Tr>
                {expanded && (
                  <Table.Tr id={`changes-${event.id}`} data-changes-of={event.id}>
                    <Table.Td colSpan={5}>
                      <SimpleGrid cols={{ base: 1, md: 2 }}>
                        <Snapshot title="Before" value={event.before} />
                        <Snapshot title="After" value={event.after} />
                      </SimpleGrid>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
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
