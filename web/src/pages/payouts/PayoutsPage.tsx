import { Stack } from "@mantine/core";
import { useIsFetching } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { DealsToPay } from "./DealsToPay";
import { PayoutGroups } from "./PayoutGroups";
import { PayoutRuns } from "./PayoutRuns";

const route = getRouteApi("/signed-in/payouts");

/** Finance's pay cycle: the payout runs, what is owed by rep and period, and deals paid one by one. */
export function PayoutsPage() {
  useRenderedMark(useIsFetching() === 0);
  const search = route.useSearch();
  const navigate = route.useNavigate();
  // A group's rep narrows the deals below to theirs: the owner filter is shared by both sections, and
  // another owner starts at the first page of their deals.
  const setOwner = (owner: string | null) =>
    void navigate({ search: { ...search, owner: owner ?? undefined, page: undefined } });
  return (
    <Stack gap="lg" maw={1100}>
      <PageHeader title="Payouts">
        Pay approved commission in payout runs. Marking a single deal paid records a payment made elsewhere.
      </PageHeader>
      <PayoutRuns page={search.runs ?? 1} onPage={(runs) => void navigate({ search: { ...search, runs } })} />
      <PayoutGroups
        page={search.groups ?? 1}
        onPage={(groups) => void navigate({ search: { ...search, groups } })}
        showDealsOf={setOwner}
      />
      <DealsToPay
        ownerId={search.owner ?? null}
        setOwnerId={setOwner}
        page={search.page ?? 1}
        onPage={(page) => void navigate({ search: { ...search, page } })}
      />
    </Stack>
  );
}
