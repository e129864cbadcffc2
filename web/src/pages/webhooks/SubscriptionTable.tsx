import { Code, Text } from "@mantine/core";
import type { Subscription } from "../../data/webhooks/queries";
import { dateTime } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import type { Column } from "../../ui/DataTable";
import { StatusBadge } from "./StatusBadge";

export const eventsText = (events: string[]) => (events.includes("*") ? "All events" : events.join(", "));

/** The subscriptions, one a row; the URL opens its page (edit, test, rotate, deliveries). */
export const SUBSCRIPTION_COLUMNS: Column<Subscription>[] = [
  {
    header: "Endpoint",
    id: "url",
    props: () => ({ maw: 360 }),
    cell: (s) => (
      <>
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
      </>
    ),
  },
  {
    header: "Events",
    id: "events",
    props: () => ({ maw: 280 }),
    cell: (s) => <Text size="sm">{eventsText(s.events)}</Text>,
  },
  {
    header: "Status",
    id: "status",
    cell: (s) => (
      <>
        <StatusBadge status={s.status} />
        {s.disabled_reason && (
          <Text size="xs" c="gray.7">
            {s.disabled_reason}
          </Text>
        )}
      </>
    ),
  },
  { header: "Secret", id: "secret", cell: (s) => <Code>{s.secret_hint}</Code> },
  { header: "Created", id: "created", cell: (s) => dateTime(s.created_at) },
];
