import { Code, Text } from "@mantine/core";
import type { Attempt } from "../../data/webhooks/queries";
import { dateTime } from "../../lib/format";
import { type Column, RecordTable } from "../../ui/DataTable";

/** How much of a response body the log shows inline; the API keeps the first 20 KB. */
const EXCERPT = 500;

const excerpt = (body: string) => (body.length > EXCERPT ? `${body.slice(0, EXCERPT)}…` : body);

const COLUMNS: Column<Attempt>[] = [
  { header: "#", cell: (_, index) => index + 1 },
  { header: "Attempted", cell: (attempt) => dateTime(attempt.attempted_at) },
  {
    header: "Response",
    id: "attempt-status",
    cell: (attempt) => (
      <>
        {attempt.response_status !== null ? `HTTP ${attempt.response_status}` : "No response"}
        {attempt.error && (
          <Text size="xs" c="red.9">
            {attempt.error}
          </Text>
        )}
      </>
    ),
  },
  { header: "Duration", numeric: true, cell: (attempt) => `${attempt.duration_ms} ms` },
  {
    header: "Body",
    id: "attempt-body",
    props: () => ({ maw: 420 }),
    cell: (attempt) =>
      attempt.response_body ? (
        <Code block style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
          {excerpt(attempt.response_body)}
        </Code>
      ) : (
        <Text size="sm" c="gray.7">
          Empty
        </Text>
      ),
  },
];

/** One delivery's attempts, oldest first: when, what came back, how long it took, the body's start. */
export function AttemptList({ attempts }: { attempts: Attempt[] }) {
  return (
    <RecordTable
      label="Attempts"
      minWidth={0}
      table={{ withRowBorders: false, verticalSpacing: 4 }}
      columns={COLUMNS}
      rows={attempts}
      rowKey={(attempt) => attempt.attempted_at}
      rowProps={(_, index) => ({ "data-attempt": index + 1 })}
    />
  );
}
