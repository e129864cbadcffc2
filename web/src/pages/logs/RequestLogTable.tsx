import { Badge, Code, Text } from "@mantine/core";
import type { RequestLog } from "../../data/request-logs/queries";
import { dateTime, decimal } from "../../lib/format";
import type { Column } from "../../ui/DataTable";

function statusColor(status: number): string {
  if (status >= 500) return "red.9";
  if (status >= 400) return "orange.9";
  return "green.9";
}

const nowrap = () => ({ style: { whiteSpace: "nowrap" } });

/**
 * Logged requests: who (a key, or a person by name, their id beside it), what, how it was answered and
 * how fast. `names`: the people the viewer sees, by id.
 */
export const requestColumns = (names: ReadonlyMap<string, string> | undefined): Column<RequestLog>[] => [
  // A phone keeps the request and how it was answered; when, how fast and by whom from `sm` up.
  { header: "When", visibleFrom: "sm", props: nowrap, cell: (row) => dateTime(row.created_at) },
  {
    header: "Request",
    id: "request",
    props: () => ({ miw: { base: 0, sm: 300 }, style: { wordBreak: "break-all" } }),
    cell: (row) => (
      <>
        <Code>{row.method}</Code> {row.path}
        <Text size="xs" c="gray.7">
          {row.id}
        </Text>
      </>
    ),
  },
  {
    header: "Status",
    id: "status",
    cell: (row) => (
      <Badge color={statusColor(row.status)} variant="dot" miw="max-content">
        {row.status}
      </Badge>
    ),
  },
  {
    header: "Duration",
    visibleFrom: "sm",
    numeric: true,
    props: nowrap,
    cell: (row) => `${decimal(row.duration_ms, 1)} ms`,
  },
  {
    header: "Caller",
    visibleFrom: "sm",
    cell: (row) => (
      <>
        {row.key_id ? "API key" : row.user_id ? (names?.get(row.user_id) ?? "Person") : "No one"}
        <Text size="xs" c="gray.7" data-col="caller">
          {row.key_id ?? row.user_id ?? "—"}
        </Text>
      </>
    ),
  },
  {
    header: "Client",
    visibleFrom: "sm",
    cell: (row) => (
      <>
        {row.client_ip ?? "—"}
        {row.user_agent && (
          <Text size="xs" c="gray.7" lineClamp={1} maw={240} title={row.user_agent}>
            {row.user_agent}
          </Text>
        )}
      </>
    ),
  },
];
