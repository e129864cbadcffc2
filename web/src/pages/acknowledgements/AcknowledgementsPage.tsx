import { Stack, Text } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { myAcknowledgementsQuery, type PlanAcknowledgement } from "../../data/plan-acknowledgements/queries";
import { dateTime } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { type Column, DataTable, listOf } from "../../ui/DataTable";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { AcknowledgementStatus } from "./receipt";

const route = getRouteApi("/signed-in/acknowledgements");
const PAGE_SIZE = 25;

const COLUMNS: Column<PlanAcknowledgement>[] = [
  {
    header: "Plan",
    id: "plan",
    rowHeader: true,
    cell: (ack) => (
      <AnchorLink to="/acknowledgements/$acknowledgementId" params={{ acknowledgementId: ack.id }}>
        {ack.plan_name}
      </AnchorLink>
    ),
  },
  { header: "Version", id: "version", numeric: true, cell: (ack) => ack.plan_version },
  { header: "Status", id: "status", cell: (ack) => <AcknowledgementStatus status={ack.status} /> },
  {
    header: "Asked on",
    id: "asked",
    props: () => ({ style: { whiteSpace: "nowrap" } }),
    cell: (ack) => dateTime(ack.created_at),
  },
  {
    header: "Acknowledged on",
    id: "acknowledged",
    props: () => ({ style: { whiteSpace: "nowrap" } }),
    cell: (ack) => (ack.acknowledged_at ? dateTime(ack.acknowledged_at) : "—"),
  },
];

/** The plan versions the person was asked to read and acknowledge, pending and done, newest first. */
export function AcknowledgementsPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const list = useQuery({
    ...myAcknowledgementsQuery({ page: search.page ?? 1, per_page: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  useRenderedMark(list.isSuccess);
  return (
    <Stack gap="md" maw={1000}>
      <PageHeader title="Plans to acknowledge">
        Each time you are assigned a plan, or your plan gets a new version, you are asked to read its terms and
        acknowledge that you received them. Your commissions are calculated and paid the same either way.
      </PageHeader>
      <DataTable
        label="Your plan acknowledgements"
        testId="my-acknowledgements"
        minWidth={640}
        table={{ verticalSpacing: "sm", striped: true }}
        columns={COLUMNS}
        rowProps={(ack) => ({ "data-ack-id": ack.id })}
        loading="Loading your plans"
        empty={{
          title: "No plan to acknowledge",
          children: "When you are assigned a plan, it appears here for you to read and acknowledge.",
        }}
        {...listOf(list, {
          noun: ["plan version", "plan versions"],
          onPage: (page) => void navigate({ search: { page } }),
        })}
      />
      <Text size="xs" c="dimmed">
        Your managers, finance and admins can see whether you have acknowledged a plan.
      </Text>
    </Stack>
  );
}
