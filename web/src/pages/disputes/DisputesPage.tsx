import { Group, Pagination, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { disputesQuery } from "../../data/disputes/queries";
import { DisputeList } from "../../ui/commission/DisputeList";
import { EmptyState, ErrorState, LoadingState } from "../../ui/states";

const DISPUTES_PAGE_SIZE = 25;

/** The disputes the person sees (their own deals'; a manager's reports' too), newest first. */
export function DisputesPage() {
  const [page, setPage] = useState(1);
  const disputes = useQuery({
    ...disputesQuery({ page, per_page: DISPUTES_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack gap="md" maw={1100}>
      <Title order={2}>My disputes</Title>
      {disputes.isPending && <LoadingState label="Loading your disputes" />}
      {disputes.isError && <ErrorState error={disputes.error} retry={() => void disputes.refetch()} />}
      {disputes.isSuccess && disputes.data.meta.total === 0 && (
        <EmptyState title="No disputes">
          To dispute an approved deal, open it from your home page and choose "Dispute this".
        </EmptyState>
      )}
      {disputes.isSuccess && disputes.data.meta.total > 0 && (
        <>
          <DisputeList disputes={disputes.data.data} />
          <Group justify="space-between">
            <Text size="sm" c="gray.7">
              {disputes.data.meta.total} dispute{disputes.data.meta.total === 1 ? "" : "s"}
            </Text>
            {disputes.data.meta.total > DISPUTES_PAGE_SIZE && (
              <Pagination
                total={Math.ceil(disputes.data.meta.total / DISPUTES_PAGE_SIZE)}
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
