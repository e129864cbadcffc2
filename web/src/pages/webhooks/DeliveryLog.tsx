import { Box, Button, Group, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { useState } from "react";
import { useRetryDelivery } from "../../data/webhooks/mutations";
import { type Delivery, deliveriesQuery } from "../../data/webhooks/queries";
import { dateTime } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";
import { type Column, DataTable, listOf } from "../../ui/DataTable";
import { AttemptList } from "./AttemptList";
import { StatusBadge } from "./StatusBadge";

const route = getRouteApi("/signed-in/webhooks/$subscriptionId");
const PAGE_SIZE = 25;

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
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const deliveries = useQuery({
    ...deliveriesQuery(subscriptionId, { page: search.deliveries ?? 1, per_page: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const retry = useRetryDelivery();
  const toggle = (id: string) =>
    setOpen((ids) => {
      const next = new Set(ids);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const columns: Column<Delivery>[] = [
    {
      header: "Event",
      id: "event",
      cell: (delivery) => (
        <>
          <Text size="sm" fw={600}>
            {delivery.event_type}
          </Text>
          <Text size="xs" c="gray.7">
            {delivery.event_id}
          </Text>
        </>
      ),
    },
    { header: "Status", id: "status", cell: (delivery) => <StatusBadge status={delivery.status} /> },
    { header: "Attempts", id: "attempts", numeric: true, cell: (delivery) => delivery.attempts.length },
    {
      header: "Last response",
      id: "response",
      props: () => ({ maw: 260, style: { overflowWrap: "anywhere" } }),
      cell: lastResponse,
    },
    {
      header: "Next retry",
      id: "next",
      props: () => ({ miw: 110 }),
      cell: (delivery) => (delivery.next_attempt_at ? dateTime(delivery.next_attempt_at) : "—"),
    },
    { header: "Created", id: "created", props: () => ({ miw: 110 }), cell: (d) => dateTime(d.created_at) },
    {
      header: "Actions",
      cell: (delivery) => (
        <Group gap={6} wrap="nowrap">
          <Button
            size="compact-sm"
            variant="light"
            aria-expanded={open.has(delivery.id)}
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
      ),
    },
  ];

  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        Deliveries
      </Title>
      <ActionError error={retry.error} />
      <DataTable
        label="Deliveries"
        testId="deliveries-table"
        minWidth={900}
        table={{ verticalSpacing: "sm" }}
        columns={columns}
        rowProps={(delivery) => ({ "data-delivery-id": delivery.id })}
        detail={(delivery) =>
          open.has(delivery.id) ? (
            <Box bg="gray.0" p="xs">
              <AttemptList attempts={delivery.attempts} />
            </Box>
          ) : null
        }
        detailProps={(delivery) => ({ id: `attempts-${delivery.id}` })}
        loading="Loading deliveries"
        empty={{
          title: "No deliveries yet",
          children: "Events this subscription receives, and tests you send, appear here.",
        }}
        {...listOf(deliveries, {
          noun: ["delivery", "deliveries"],
          onPage: (page) => void navigate({ search: { deliveries: page } }),
        })}
      />
    </Stack>
  );
}
