import { Group, SegmentedControl, Stack, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { disputesQuery } from "../../data/disputes/queries";
import { DataList, listOf } from "../../ui/DataTable";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { DisputeCard } from "./DisputeCard";

const route = getRouteApi("/signed-in/dispute-queue");
const QUEUE_PAGE_SIZE = 20;

/** The admin's dispute queue: open disputes to resolve (resolved ones a click away), newest first. */
export function DisputeQueuePage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const status = search.status ?? "open";
  const disputes = useQuery({
    ...disputesQuery({ status: [status], page: search.page ?? 1, per_page: QUEUE_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  useRenderedMark(disputes.isSuccess);

  return (
    <Stack gap="md" maw={1000}>
      <Group justify="space-between" align="end" wrap="wrap">
        <Title order={1} size="h2">
          Dispute queue
        </Title>
        <SegmentedControl
          aria-label="Which disputes"
          value={status}
          onChange={(value) => void navigate({ search: { status: value === "resolved" ? "resolved" : undefined } })}
          data={[
            { value: "open", label: "Open" },
            { value: "resolved", label: "Resolved" },
          ]}
        />
      </Group>
      <DataList
        loading="Loading the disputes"
        loadingLines={4}
        empty={
          status === "open"
            ? { title: "No open disputes", children: "When a rep disputes an approved deal, it waits here." }
            : { title: "No resolved disputes" }
        }
        {...listOf(disputes, {
          noun: [`${status} dispute`, `${status} disputes`],
          countId: "queue-count",
          onPage: (page) => void navigate({ search: { ...search, page } }),
        })}
      >
        {(rows) => (
          <Stack gap="sm">
            {rows.map((dispute) => (
              <DisputeCard key={dispute.id} dispute={dispute} />
            ))}
          </Stack>
        )}
      </DataList>
    </Stack>
  );
}
