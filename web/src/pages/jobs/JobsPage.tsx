import { Autocomplete, Badge, Progress, Select, Stack, Text } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { type JobListItem as Job, jobsQuery } from "../../data/jobs/queries";
import { useDraft } from "../../lib/draft";
import { dateTime, decimal } from "../../lib/format";
import { type Column, DataTable, listOf } from "../../ui/DataTable";
import { FilterBar } from "../../ui/FilterBar";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { JOB_STATUSES } from "./schemas";

const route = getRouteApi("/signed-in/jobs");
const JOBS_PAGE_SIZE = 25;
const JOB_KINDS = ["recalculate", "plan_impact", "retention"];
const ANY = "all";
const STATUS_OPTIONS = [
  { value: ANY, label: "Every status" },
  ...JOB_STATUSES.map((status) => ({ value: status, label: status[0]!.toUpperCase() + status.slice(1) })),
];
const STATUS_COLORS: Record<Job["status"], string> = {
  queued: "blue.8",
  running: "indigo.8",
  succeeded: "green.8",
  failed: "red.8",
};

const COLUMNS: Column<Job>[] = [
  {
    header: "Created",
    props: () => ({ style: { whiteSpace: "nowrap" } }),
    cell: (job) => (
      <>
        {dateTime(job.created_at)}
        <Text size="xs" c="gray.7">
          {job.id}
        </Text>
      </>
    ),
  },
  { header: "Kind", id: "kind", cell: (job) => job.kind },
  {
    header: "Status",
    id: "status",
    cell: (job) => (
      <Badge color={STATUS_COLORS[job.status]} variant="dot" miw="max-content">
        {job.status}
      </Badge>
    ),
  },
  { header: "Progress", id: "progress", props: () => ({ miw: 200 }), cell: (job) => <JobProgress job={job} /> },
  {
    header: "Finished",
    props: () => ({ style: { whiteSpace: "nowrap" } }),
    cell: (job) => (job.finished_at ? dateTime(job.finished_at) : "—"),
  },
  {
    header: "Error",
    cell: (job) =>
      job.error ? (
        <Text size="xs" c="red.9" lineClamp={3} maw={280}>
          {job.error}
        </Text>
      ) : (
        "—"
      ),
  },
];

/** Background work (recalculations, large impact previews, retention) with its progress, live. */
export function JobsPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const { status, kind } = search;
  const [draft, setDraft] = useDraft({ status: status ?? ANY, kind: kind ?? "" });
  const jobs = useQuery({
    ...jobsQuery({ page: search.page ?? 1, status, kind, per_page: JOBS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  useRenderedMark(jobs.isSuccess);
  const polling = jobs.data?.data.some((j) => j.status === "queued" || j.status === "running") ?? false;
  const clear = () => void navigate({ search: {} });

  return (
    <Stack gap="md">
      <PageHeader title="Jobs">
        Work the service does in the background: wide recalculations, large plan-change previews, clean-up.
        {polling && " Jobs in progress update every 2 seconds."}
      </PageHeader>
      <FilterBar
        label="Filter jobs"
        onApply={() =>
          void navigate({
            search: {
              status: JOB_STATUSES.find((s) => s === draft.status),
              kind: draft.kind.trim() || undefined,
            },
          })
        }
        onClear={clear}
      >
        <Select
          label="Status"
          data={STATUS_OPTIONS}
          value={draft.status}
          onChange={(value) => value && setDraft({ ...draft, status: value })}
          allowDeselect={false}
          w={170}
        />
        <Autocomplete
          label="Kind"
          data={JOB_KINDS}
          value={draft.kind}
          onChange={(value) => setDraft({ ...draft, kind: value })}
          w={200}
        />
      </FilterBar>
      <DataTable
        label="Jobs"
        testId="jobs-table"
        minWidth={900}
        table={{ verticalSpacing: "sm", fz: "sm", striped: true }}
        columns={COLUMNS}
        rowProps={(job) => ({ "data-job-id": job.id })}
        loading="Loading jobs"
        empty={{
          title: "No jobs yet",
          children: "Jobs appear when a change is too wide to finish within its request, and are kept 30 days.",
        }}
        filtered={
          status || kind
            ? { title: "No jobs match", children: "No job has this status or kind.", onClear: clear }
            : undefined
        }
        {...listOf(jobs, {
          noun: ["job", "jobs"],
          onPage: (page) => void navigate({ search: { ...search, page } }),
        })}
      />
    </Stack>
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
