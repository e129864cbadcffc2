import { Code, Table, Text } from "@mantine/core";
import type { Subscription } from "../../data/webhooks/queries";
import { dateTime } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { ScrollTable } from "../../ui/ScrollTable";
import { StatusBadge } from "./StatusBadge";

export const eventsText = (events: string[]) => (events.includes("*") ? "All events" : events.join(", "));

/** The subscriptions, one a row; the URL opens its page (edit, test, rotate, deliveries). */
export function SubscriptionTable({ subscriptions }: { subscriptions: Subscription[] }) {
  return (
    <ScrollTable minWidth={900} label="Webhook subscriptions">
      <Table striped verticalSpacing="sm" aria-label="Webhook subscriptions" data-testid="subscriptions-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Endpoint</Table.Th>
            <Table.Th scope="col">Events</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">Secret</Table.Th>
            <Table.Th scope="col">Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {subscriptions.map((s) => (
            <Table.Tr key={s.id} data-subscription-id={s.id}>
              <Table.Td data-col="url" maw={360}>
                <AnchorLink
                  to="/webhooks/$subscriptionId"
                  params={{ subscriptionId: s.id }}
                  style={{ overflowWrap: "anywhere" }}
                >
                  {s.url}
                </AnchorLink>
                {s.description && (
                  <Text size="xs" c="gray.7">
                    {s.description}
                  </Text>
                )}
              </Table.Td>
              <Table.Td data-col="events" maw={280}>
                <Text size="sm">{eventsText(s.events)}</Text>
              </Table.Td>
              <Table.Td data-col="status">
                <StatusBadge status={s.status} />
                {s.disabled_reason && (
                  <Text size="xs" c="gray.7">
                    {s.disabled_reason}
                  </Text>
                )}
              </Table.Td>
              <Table.Td data-col="secret">
                <Code>{s.secret_hint}</Code>
              </Table.Td>
              <Table.Td data-col="created">{dateTime(s.created_at)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
