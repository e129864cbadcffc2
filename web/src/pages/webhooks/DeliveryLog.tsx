import { Button, Group, Pagination, Stack, Table, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { useRetryDelivery } from "../../data/webhooks/mutations";
import { type Delivery, deliveriesQuery } from "../../data/webhooks/queries";
import { dateTime } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";
import { ScrollTable } from "../../ui/ScrollTable";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";

const PAGE_SIZE = 25;

import { AttemptList } from "./AttemptList";
import { StatusBadge } from "./StatusBadge";

/** What the last attempt got: the HTTP status, or why there was none. */
function lastResponse(delivery: Delivery): string {
  const last = delivery.attempts.at(-1);
  if (!last) return "Not attempted yet";
  if (last.response_status !== null) return `HTTP ${last.response_status}`;
  return last.error ?? "No response";
}

/**
 * A subscription's deliveries, newest first: each event's status, attempts, the last response and the
 * next retry; a row opens to every attempt with its response body excerpt. While one is still due, the
 * log reads itself again (data/webhooks/queries.ts).
 */
export function DeliveryLog({ subscriptionId, active }: { subscriptionId: string; active: boolean }) {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const deliveries = useQuery({
    ...deliveriesQuery(subscriptionId, { page, per_page: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const retry = useRetryDelivery();
  const toggle = (id: string) =>
    setOpen((ids) => {
      const next = new Set(ids);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const body = (() => {
    if (deliveries.isPending) return <LoadingState label="Loading deliveries" />;
    if (deliveries.isError) return <ErrorState error={deliveries.error} retry={() => void deliveries.refetch()} />;
    const { data, meta } = deliveries.data;
    if (meta.total === 0) {
      return (
        <EmptyState title="No deliveries yet">
          Events this subscription receives, and tests you send, appear here.
        </EmptyState>
      );
    }
    return (
      <>
        <ScrollTable minWidth={900} label="Deliveries">
          <Table verticalSpacing="sm" aria-label="Deliveries" data-testid="deliveries-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Event</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col" ta="right">
                  Attempts
                </Table.Th>
                <Table.Th scope="col">Last response</Table.Th>
                <Table.Th scope="col">Next retry</Table.Th>
                <Table.Th scope="col">Created</Table.Th>
                <Table.Th scope="col">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((delivery) => {
                const expanded = open.has(delivery.id);
                return (
                  <Fragment key={delivery.id}>
                    <Table.Tr data-delivery-id={delivery.id}>
                      <Table.Td data-col="event">
                        <Text size="sm" fw={600}>
                          {delivery.event_type}
                        </Text>
                        <Text size="xs" c="gray.7">
                          {delivery.event_id}
                        </Text>
                      </Table.Td>
                      <Table.Td data-col="status">
                        <StatusBadge status={delivery.status} />
                      </Table.Td>
                      <Table.Td data-col="attempts" ta="right">
                        {delivery.attempts.length}
                      </Table.Td>
                      <Table.Td data-col="response" maw={260} style={{ overflowWrap: "anywhere" }}>
                        {lastResponse(delivery)}
                      </Table.Td>
                      <Table.Td data-col="next" miw={110}>
                        {delivery.next_attempt_at ? dateTime(delivery.next_attempt_at) : "—"}
                      </Table.Td>
                      <Table.Td data-col="created" miw={110}>
                        {dateTime(delivery.created_at)}
                      </Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          <Button
                            size="compact-sm"
                            variant="light"
                            aria-expanded={expanded}
                            aria-controls={`attempts-${delivery.id}`}
                            onClick={() => toggle(delivery.id)}
                            disabled={delivery.attempts.length === 0}
                          >
                            Attempts
                          </Button>
                          {active && delivery.status !== "succeeded" && delivery.attempts.length > 0 && (
                            <Button
                              size="compact-sm"
                              variant="light"
                              loading={retry.isPending && retry.variables === delivery.id}
                              onClick={() => retry.mutate(delivery.id)}
                              aria-label={`Retry now: delivery ${delivery.id}`}
                            >
                              Retry now
                            </Button>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                    {expanded && (
                      <Table.Tr id={`attempts-${delivery.id}`}>
                        <Table.Td colSpan={7} bg="gray.0">
                          <AttemptList attempts={delivery.attempts} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollTable>
        <Group justify="space-between">
          <Text size="sm" c="gray.7">
            {meta.total} deliver{meta.total === 1 ? "y" : "ies"}
          </Text>
          {meta.total > PAGE_SIZE && (
            <Pagination
              total={Math.ceil(meta.total / PAGE_SIZE)}
              value={page}
              onChange={setPage}
              size="sm"
              aria-label="Delivery pages"
            />
          )}
        </Group>
      </>
    );
  })();

  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        Deliveries
      </Title>
      <ActionError error={retry.error} />
      {body}
    </Stack>
  );
}
