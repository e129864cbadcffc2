import { Code, Stack, Table, Text } from "@mantine/core";
import type { Attempt } from "../../data/webhooks/queries";
import { dateTime } from "../../lib/format";

/** How much of a response body the log shows inline; the API keeps the first 20 KB. */
const EXCERPT = 500;

const excerpt = (body: string) => (body.length > EXCERPT ? `${body.slice(0, EXCERPT)}…` : body);

/** One delivery's attempts, oldest first: when, what came back, how long it took, the body's start. */
export function AttemptList({ attempts }: { attempts: Attempt[] }) {
  return (
    <Stack gap="xs">
      <Table withRowBorders={false} verticalSpacing={4} aria-label="Attempts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">#</Table.Th>
            <Table.Th scope="col">Attempted</Table.Th>
            <Table.Th scope="col">Response</Table.Th>
            <Table.Th scope="col" ta="right">
              Duration
            </Table.Th>
            <Table.Th scope="col">Body</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {attempts.map((attempt, index) => (
            <Table.Tr key={attempt.attempted_at} data-attempt={index + 1}>
              <Table.Td>{index + 1}</Table.Td>
              <Table.Td>{dateTime(attempt.attempted_at)}</Table.Td>
              <Table.Td data-col="attempt-status">
                {attempt.response_status !== null ? `HTTP ${attempt.response_status}` : "No response"}
                {attempt.error && (
                  <Text size="xs" c="red.9">
                    {attempt.error}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ta="right">{attempt.duration_ms} ms</Table.Td>
              <Table.Td data-col="attempt-body" maw={420}>
                {attempt.response_body ? (
                  <Code block style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                    {excerpt(attempt.response_body)}
                  </Code>
                ) : (
                  <Text size="sm" c="gray.7">
                    Empty
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
