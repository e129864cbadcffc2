import { Group, Pagination, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type Dispute, disputesQuery } from "../../data/disputes/queries";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { DisputeCard } from "./DisputeCard";

type QueueStatus = Dispute["status"];
const QUEUE_PAGE_SIZE = 20;

/** The admin's dispute queue: open disputes to resolve (resolved ones a click away), newest first. */
export function DisputeQueuePage() {
  const [status, setStatus] = useState<QueueStatus>("open");
  const [page, setPage] = useState(1);
  const disputes = useQuery({
    ...disputesQuery({ status: [status], page, per_page: QUEUE_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  useRenderedMark(disputes.isSuccess);
  const total = disputes.data?.meta.total ?? 0;

  return (
    <Stack gap="md" maw={1000}>
      <Group justify="space-between" align="end" wrap="wrap">
        <Title order={2}>Dispute queue</Title>
        <SegmentedControl
          aria-label="Which disputes"
          value={status}
          onChange={(value) => {
            setStatus(value === "resolved" ? "resolved" : "open");
            setPage(1);
          }}
          data={[
            { value: "open", label: "Open" },
            { value: "resolved", label: "Resolved" },
          ]}
        />
      </Group>
      {disputes.isPending && <LoadingState label="Loading the disputes" />}
      {disputes.isError && <ErrorState error={disputes.error} retry={() => void disputes.refetch()} />}
      {disputes.isSuccess && total === 0 && (
        <EmptyState title={status === "open" ? "No open disputes" : "No resolved disputes"}>
          {status === "open" ? "When a rep disputes an approved deal, it waits here." : undefined}
        </EmptyState>
      )}
      {disputes.isSuccess && total > 0 && (
        <>
          <Stack gap="sm">
            {disputes.data.data.map((dispute) => (
              <DisputeCard key={dispute.id} dispute={dispute} />
            ))}
          </Stack>
          <Group justify="space-between">
            <Text size="sm" c="gray.7" data-testid="queue-count">
              {total} {status} dispute{total === 1 ? "" : "s"}
            </Text>
            {total > QUEUE_PAGE_SIZE && (
              <Pagination
                total={Math.ceil(total / QUEUE_PAGE_SIZE)}
                value={page}
                onChange={setPage}
                size="sm"
                aria-label="Dispute pages"
              />
            )}
          </Group>
        </>
      )}
    </Stack>
  );
}
