import { Stack, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { disputesQuery } from "../../data/disputes/queries";
import { DISPUTE_TABLE, disputeColumns } from "../../ui/commission/DisputeList";
import { DataTable, listOf } from "../../ui/DataTable";

const route = getRouteApi("/signed-in/disputes");
const DISPUTES_PAGE_SIZE = 25;
const COLUMNS = disputeColumns();

/** The disputes the person sees (their own deals'; a manager's reports' too), newest first. */
export function DisputesPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const disputes = useQuery({
    ...disputesQuery({ page: search.page ?? 1, per_page: DISPUTES_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack gap="md" maw={1100}>
      <Title order={1} size="h2">
        My disputes
      </Title>
      <DataTable
        {...DISPUTE_TABLE}
        columns={COLUMNS}
        loading="Loading your disputes"
        loadingLines={4}
        empty={{
          title: "No disputes",
          children: 'To dispute an approved deal, open it from your home page and choose "Dispute this".',
        }}
        {...listOf(disputes, {
          noun: ["dispute", "disputes"],
          onPage: (page) => void navigate({ search: { page } }),
        })}
      />
    </Stack>
  );
}
