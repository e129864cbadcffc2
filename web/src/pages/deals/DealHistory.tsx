import { Code, Group, Pagination, Stack, Table, Text } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Schemas } from "../../api/types";
import { dealHistoryQuery, HISTORY_PAGE_SIZE } from "../../data/deals/queries";
import { dateTime } from "../../lib/format";
import { ScrollTable } from "../../ui/ScrollTable";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";

type AuditEvent = Schemas["AuditEvent"];

const statusOf = (body: unknown): string | undefined =>
  body && typeof body === "object" && "status" in body && typeof body.status === "string" ? body.status : undefined;

/** "approved → disputed" when the event moved a status, else nothing. */
function statusChange(event: AuditEvent): string | undefined {
  const before = statusOf(event.before);
  const after = statusOf(event.after);
  if (after && before && before !== after) return `${before} → ${after}`;
  return after && !before ? after : undefined;
}

/** The deal's audit trail (GET /deals/{id}/history), newest first, a page at a time. */
export function DealHistory({ dealId }: { dealId: string }) {
  const [page, setPage] = useState(1);
  const history = useQuery({ ...dealHistoryQuery(dealId, page), placeholderData: keepPreviousData });
  if (history.isPending) return <LoadingState label="Loading the history" lines={3} />;
  if (history.isError) return <ErrorState error={history.error} retry={() => void history.refetch()} />;
  const { data, meta } = history.data;
  if (meta.total === 0) return <EmptyState title="No history yet" />;
  const pages = Math.max(1, Math.ceil(meta.total / HISTORY_PAGE_SIZE));
  return (
    <Stack gap="xs">
      <ScrollTable minWidth={520} label="The deal's history">
        <Table aria-label="History" fz="sm" data-testid="deal-history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>What</Table.Th>
              <Table.Th>Change</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.map((event) => (
              <Table.Tr key={event.id}>
                <Table.Td>{dateTime(event.created_at)}</Table.Td>
                <Table.Td>{event.actor.name}</Table.Td>
                <Table.Td>
                  <Text size="sm">{event.action}</Text>
                  {event.resource !== "deal" && (
                    <Text size="xs" c="gray.7">
                      {event.resource} {event.resource_id}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {statusChange(event)}
                  <details>
                    <summary>Before / after</summary>
                    <Code block fz="xs">
                      {JSON.stringify({ before: event.before, after: event.after }, null, 2)}
                    </Code>
                  </details>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {pages > 1 && (
        <Group justify="flex-end">
          <Pagination total={pages} value={page} onChange={setPage} size="sm" aria-label="History pages" />
        </Group>
      )}
    </Stack>
  );
}
