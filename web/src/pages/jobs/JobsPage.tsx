import { Autocomplete, Badge, Progress, Select, Stack, Table, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type JobListItem as Job, type JobsQuery, jobsQuery } from "../../data/jobs/queries";
import { dateTime, decimal } from "../../lib/format";
import { FilterBar } from "../../ui/FilterBar";
import { ListPager } from "../../ui/ListPager";
import { ScrollTable } from "../../ui/ScrollTable";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";

type JobFilter = Omit<JobsQuery, "per_page">;
const JOBS_PAGE_SIZE = 25;
const JOB_KINDS = ["recalculate", "plan_impact", "retention"];

const STATUS_OPTIONS = [
  { value: "all", label: "Every status" },
  { value: "queued", label: "Queued" },
  { value: "running", label: "Running" },
  { value: "succeeded", label: "Succeeded" },
  { value: "failed", label: "Failed" },
];
const STATUS_COLORS: Record<Job["status"], string> = {
  queued: "blue.8",
  running: "indigo.8",
  succeeded: "green.8",
  failed: "red.8",
};

/** Background work (recalculations, large impact previews, retention) with its progress, live. */
export function JobsPage() {
  const [draft, setDraft] = useState({ status: "all", kind: "" });
  const [filter, setFilter] = useState<JobFilter>({ page: 1 });
  const jobs = useQuery({ ...jobsQuery({ ...filter, per_page: JOBS_PAGE_SIZE }), placeholderData: keepPreviousData });
  useRenderedMark(jobs.isSuccess);
  const polling = jobs.data?.data.some((j) => j.status === "queued" || j.status === "running") ?? false;

  return (
    <Stack gap="md">
      <div>
        <Title order={2}>Jobs</Title>
        <Text size="sm" c="dimmed">
          Work the service does in the background: wide recalculations, large plan-change previews, clean-up.
          {polling && " Jobs in progress update every 2 seconds."}
        </Text>
      </div>
      <FilterBar
        label="Filter jobs"
        onApply={() =>
          setFilter({
            page: 1,
            status: draft.status === "all" ? undefined : (draft.status as JobFilter["status"]),
            kind: draft.kind.trim() || undefined,
          })
        }
        onClear={() => {
          setDraft({ status: "all", kind: "" });
          setFilter({ page: 1 });
        }}
      >
        <Select
          label="Status"
          data={STATUS_OPTIONS}
          value={draft.status}
          onChange={(status) => status && setDraft({ ...draft, status })}
          allowDeselect={false}
          w={170}
        />
        <Autocomplete
          label="Kind"
          data={JOB_KINDS}
          value={draft.kind}
          onChange={(kind) => setDraft({ ...draft, kind })}
          w={200}
        />
      </FilterBar>
      {jobs.isError && <ErrorState error={jobs.error} retry={() => void jobs.refetch()} />}
      {jobs.isPending && <LoadingState label="Loading jobs" lines={6} />}
      {jobs.isSuccess && jobs.data.meta.total === 0 && (
        <EmptyState title="No jobs match">
          Jobs appear when a change is too wide to finish within its request, and are kept 30 days after they finish.
        </EmptyState>
      )}
      {jobs.isSuccess && jobs.data.meta.total > 0 && (
        <>
          <JobTable jobs={jobs.data.data} />
          <ListPager meta={jobs.data.meta} noun={["job", "jobs"]} onPage={(page) => setFilter({ ...filter, page })} />
        </>
      )}
    </Stack>
  );
}

function JobTable({ jobs }: { jobs: Job[] }) {
  return (
    <ScrollTable minWidth={900} label="Jobs">
      <Table verticalSpacing="sm" fz="sm" striped aria-label="Jobs" data-testid="jobs-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Created</Table.Th>
            <Table.Th scope="col">Kind</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">Progress</Table.Th>
            <Table.Th scope="col">Finished</Table.Th>
            <Table.Th scope="col">Error</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {jobs.map((job) => (
            <Table.Tr key={job.id} data-job-id={job.id}>
              <Table.Td style={{ whiteSpace: "nowrap" }}>
                {dateTime(job.created_at)}
                <Text size="xs" c="gray.7">
                  {job.id}
                </Text>
              </Table.Td>
              <Table.Td data-col="kind">{job.kind}</Table.Td>
              <Table.Td data-col="status">
                <Badge color={STATUS_COLORS[job.status]} variant="dot" miw="max-content">
                  {job.status}
                </Badge>
              </Table.Td>
              <Table.Td data-col="progress" miw={200}>
                <JobProgress job={job} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{job.finished_at ? dateTime(job.finished_at) : "—"}</Table.Td>
              <Table.Td>
                {job.error ? (
                  <Text size="xs" c="red.9" lineClamp={3} maw={280}>
                    {job.error}
                  </Text>
                ) : (
                  "—"
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

/** done of total as a bar when the total is known; the count alone when it is not. */
function JobProgress({ job }: { job: Job }) {
  const text =
    job.total === null ? `${decimal(job.done, 0)} done` : `${decimal(job.done, 0)} of ${decimal(job.total, 0)}`;
  if (job.total === null || job.total === 0) return <Text size="sm">{text}</Text>;
  // A display ratio for the bar's width only; the numbers shown are the API's.
  const value = Math.min(100, (job.done / job.total) * 100);
  return (
    <Stack gap={2}>
      <Progress
        value={job.status === "succeeded" ? 100 : value}
        color={job.status === "failed" ? "red" : undefined}
        animated={job.status === "running"}
        aria-label={`Progress of ${job.id}: ${text}`}
      />
      <Text size="xs" c="gray.7">
        {text}
      </Text>
    </Stack>
  );
}
