import { Stack } from "@mantine/core";
import { useIsFetching } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { PageHeader } from "../../ui/PageHeader";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { DealsToPay } from "./DealsToPay";
import { PayoutGroups } from "./PayoutGroups";

const route = getRouteApi("/signed-in/payouts");

/** Finance's payout run: what is owed by rep and period, and the approved deals to mark paid. */
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
        Approved commission not yet paid. Marking a deal paid records a payment made elsewhere.
      </PageHeader>
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
