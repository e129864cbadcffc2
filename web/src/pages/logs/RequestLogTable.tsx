import { Badge, Code, Table, Text } from "@mantine/core";
import type { RequestLog } from "../../data/request-logs/queries";
import { dateTime, decimal } from "../../lib/format";
import { ScrollTable } from "../../ui/ScrollTable";

function statusColor(status: number): string {
  if (status >= 500) return "red.9";
  if (status >= 400) return "orange.9";
  return "green.9";
}

/** Logged requests, newest first: who (key or person), what, how it was answered and how fast. */
export function RequestLogTable({ rows }: { rows: RequestLog[] }) {
  return (
    <ScrollTable minWidth={1080} label="Requests">
      <Table verticalSpacing="xs" fz="sm" striped aria-label="Requests" data-testid="request-log-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">When</Table.Th>
            <Table.Th scope="col">Request</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col" ta="right">
              Duration
            </Table.Th>
            <Table.Th scope="col">Caller</Table.Th>
            <Table.Th scope="col">Client</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-request-id={row.id}>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{dateTime(row.created_at)}</Table.Td>
              <Table.Td data-col="request" miw={300} style={{ wordBreak: "break-all" }}>
                <Code>{row.method}</Code> {row.path}
                <Text size="xs" c="gray.7">
                  {row.id}
                </Text>
              </Table.Td>
              <Table.Td data-col="status">
                <Badge color={statusColor(row.status)} variant="dot" miw="max-content">
                  {row.status}
                </Badge>
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>
                {decimal(row.duration_ms, 1)} ms
              </Table.Td>
              <Table.Td>
                {row.key_id ? "API key" : row.user_id ? "Person" : "No one"}
                <Text size="xs" c="gray.7" data-col="caller">
                  {row.key_id ?? row.user_id ?? "—"}
                </Text>
              </Table.Td>
              <Table.Td>
                {row.client_ip ?? "—"}
                {row.user_agent && (
                  <Text size="xs" c="gray.7" lineClamp={1} maw={240} title={row.user_agent}>
                    {row.user_agent}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
