import { Alert, Button, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useNavigate, useParams } from "@tanstack/react-router";
import { useState } from "react";
import { ApiError } from "../../api/errors";
import { useUpdateDeal } from "../../data/deals/mutations";
import { type DealDetail, dealQuery, etagOfLastRead } from "../../data/deals/queries";
import { everyoneQuery } from "../../data/users/queries";
import { AnchorLink } from "../../ui/AnchorLink";
import { PageHeader } from "../../ui/PageHeader";
import { ErrorState, LoadingState, NotFoundState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { DealForm } from "./DealForm";
import { editable } from "./deal-editable";
import { dealPatch, valuesOfDeal } from "./deal-problems";

/** /deals/$dealId/edit (admins): the pending deal's fields, priced as they are typed, saved with If-Match. */
export function EditDealPage() {
  const { dealId } = useParams({ from: "/signed-in/deals/$dealId/edit" });
  const deal = useQuery(dealQuery(dealId));
  const people = useQuery(everyoneQuery());
  // The form starts from the deal as read when it opened, and from that read's ETag; "Start again" reads both anew.
  const [opened, setOpened] = useState<{ deal: DealDetail; etag: string | null; round: number }>();
  useRenderedMark(deal.data !== undefined && people.data !== undefined);

  if (deal.isPending) return <LoadingState label="Loading the deal" lines={8} />;
  if (deal.isError) {
    if (deal.error instanceof ApiError && deal.error.status === 404) return <NotFoundState what="deal" />;
    return <ErrorState error={deal.error} retry={() => void deal.refetch()} />;
  }
  const base = opened ?? { deal: deal.data, etag: etagOfLastRead(dealId), round: 0 };
  if (!opened) setOpened(base);
  const startAgain = async () => {
    const fresh = await deal.refetch();
    if (fresh.data) setOpened({ deal: fresh.data, etag: etagOfLastRead(dealId), round: base.round + 1 });
  };

  return (
    <Stack gap="md">
      <PageHeader title={`Edit ${base.deal.opportunity_name}`}>
        Saving prices the deal again, with the later deals of its periods.
      </PageHeader>
      {editable(base.deal) ? (
        <EditForm key={base.round} deal={base.deal} etag={base.etag} people={people.data} startAgain={startAgain} />
      ) : (
        <Alert color="gray" title="This deal cannot be edited here" data-testid="not-editable">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              It is {base.deal.status}: only a pending deal is edited, before an admin approves or rejects it.
            </Text>
            <AnchorLink to="/deals/$dealId" params={{ dealId }}>
              Back to the deal
            </AnchorLink>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

function EditForm(props: {
  deal: DealDetail;
  etag: string | null;
  people: Parameters<typeof DealForm>[0]["people"];
  startAgain: () => Promise<void>;
}) {
  const { deal, etag, people, startAgain } = props;
  const navigate = useNavigate();
  const update = useUpdateDeal(deal.id);
  const [initial] = useState(() => valuesOfDeal(deal));
  return (
    <DealForm
      initial={initial}
      people={people}
      editing={deal}
      submitLabel="Save changes"
      saving={update.isPending}
      error={update.error}
      cancel={() => void navigate({ to: "/deals/$dealId", params: { dealId: deal.id } })}
      save={(values) => update.mutateAsync({ body: dealPatch(deal, values), etag })}
      errorWords={(error) =>
        error instanceof ApiError && error.code === "precondition_failed" ? (
          <Alert color="red" role="alert" title="Someone changed this deal since you opened it">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                Nothing was saved. Start again from the deal as it is now; what you typed here is replaced.
              </Text>
              <Button size="xs" variant="default" onClick={() => void startAgain()}>
                Start again
              </Button>
            </Stack>
          </Alert>
        ) : undefined
      }
    />
  );
}
