import { Badge, Button, Card, Group, Modal, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useParams, useRouteContext, useSearch } from "@tanstack/react-router";
import { lazy, Suspense, useState } from "react";
import { ApiError } from "../../api/errors";
import type { SessionUser } from "../../data/auth/queries";
import { type DealDetail, dealHistoryQuery, dealQuery } from "../../data/deals/queries";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import { date, money, sharePercent } from "../../lib/format";
import { sumMoney } from "../../lib/money";
import { ButtonLink } from "../../ui/AnchorLink";
import { commissionLabel } from "../../ui/commission/commissionLabel";
import { DealLines } from "../../ui/commission/DealLines";
import { DisputeList } from "../../ui/commission/DisputeList";
import { DEAL_TYPE_LABELS } from "../../ui/labels";
import { RecordId } from "../../ui/RecordId";
import { ErrorState, LoadingState, NotFoundState } from "../../ui/states";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { CancellationFacts, ClawbackActions } from "./DealCancellation";
import { DealHistory } from "./DealHistory";
import { DeleteDeal } from "./DeleteDeal";
import { editable } from "./deal-editable";
import { dealDisputes } from "./loader";

// The form (and the kit's Select and NumberInput under it) loads when someone opens it, not with every deal.
const DisputeForm = lazy(() => import("./DisputeForm").then((m) => ({ default: m.DisputeForm })));
const AdjustmentForm = lazy(() => import("./AdjustmentForm").then((m) => ({ default: m.AdjustmentForm })));

/** Admins write deals (POST, PATCH and DELETE /deals take the write scope, MAY.write): pending ones here. */
const mayEdit = (deal: DealDetail, user: SessionUser) => user.role === "admin" && editable(deal);

/** Admins and finance adjust (API.md §4): any deal but a rejected one. */
const mayAdjust = (deal: DealDetail, user: SessionUser) =>
  (user.role === "admin" || user.role === "finance") && deal.status !== "rejected";

/** A deal the person may dispute (API.md §11): approved, and theirs unless they are an admin. */
function mayDispute(deal: DealDetail, user: SessionUser): boolean {
  if (deal.status !== "approved") return false;
  if (user.role === "admin") return true;
  if (user.role !== "rep" && user.role !== "manager") return false;
  return deal.owner_id === user.id || deal.splits.some((s) => s.user_id === user.id);
}

export function DealPage() {
  const { dealId } = useParams({ from: "/signed-in/deals/$dealId" });
  const deal = useQuery(dealQuery(dealId));
  if (deal.isPending) return <LoadingState label="Loading the deal" lines={8} />;
  if (deal.isError) {
    if (deal.error instanceof ApiError && deal.error.status === 404) return <NotFoundState what="deal" />;
    return <ErrorState error={deal.error} retry={() => void deal.refetch()} />;
  }
  return <DealView deal={deal.data} />;
}

function DealView({ deal }: { deal: DealDetail }) {
  const { session } = useRouteContext({ from: "/signed-in" });
  const people = useQuery({ ...everyoneQuery(), select: namesOf });
  // What the sections below read too (same keys, one request each): the page is shown once all of it is.
  const disputes = useQuery(dealDisputes(deal.id));
  const search = useSearch({ from: "/signed-in/deals/$dealId" });
  const history = useQuery(dealHistoryQuery(deal.id, search.history ?? 1));
  useRenderedMark(people.data !== undefined && disputes.data !== undefined && history.data !== undefined);
  const [disputing, setDisputing] = useState(false);
  const [adjusting, setAdjusting] = useState(false);
  // The deal names its owner and credited users (a rep's split partner too); others by the people they see.
  const nameOf = (id: string) => deal.people.find((p) => p.user_id === id)?.name ?? people.data?.get(id) ?? id;
  const own = ownShare(deal, session.user.id);
  // A rep's visible total is their own lines' (API.md §20 b): shown once, as "Your commission".
  const ownIsVisibleTotal = deal.total_commission_scope === "visible" && session.user.role === "rep";

  return (
    <Stack gap="lg" maw={960}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1} size="h2">
            {deal.opportunity_name}
          </Title>
          <Group gap="xs">
            <Badge data-testid="deal-status" color={deal.status === "disputed" ? "red.9" : "indigo.8"}>
              {deal.status}
            </Badge>
            <RecordId id={deal.id} label="The deal's id" />
          </Group>
        </Stack>
        <Group gap="xs">
          {mayEdit(deal, session.user) && (
            <>
              <ButtonLink variant="default" to="/deals/$dealId/edit" params={{ dealId: deal.id }}>
                Edit
              </ButtonLink>
              <DeleteDeal deal={deal} />
            </>
          )}
          <ClawbackActions deal={deal} nameOf={nameOf} />
          {mayAdjust(deal, session.user) && (
            <Button variant="default" onClick={() => setAdjusting(true)}>
              Add adjustment
            </Button>
          )}
          {mayDispute(deal, session.user) && <Button onClick={() => setDisputing(true)}>Dispute this</Button>}
        </Group>
      </Group>

      <Card withBorder>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          {/* The person's own share first (API.md §20 b), then the total they may see: their team's or the deal's. */}
          {own && !ownIsVisibleTotal && (
            <Fact
              label="Your commission"
              value={money(own.amount, deal.total_commission_currency)}
              hint={own.percent === undefined ? undefined : `Your share: ${sharePercent(own.percent)}`}
              testId="own-commission"
            />
          )}
          <Fact
            label={commissionLabel(deal.total_commission_scope, session.user.role)}
            value={money(deal.total_commission, deal.total_commission_currency)}
            hint={
              own && ownIsVisibleTotal && own.percent !== undefined
                ? `Your share: ${sharePercent(own.percent)}`
                : undefined
            }
            testId="deal-total"
          />
          <Fact label="ARR" value={money(deal.arr_amount, deal.currency)} />
          <Fact label="Type" value={DEAL_TYPE_LABELS[deal.deal_type]} />
          <Fact label="Close date" value={date(deal.close_date)} />
          <Fact label="Owner" value={nameOf(deal.owner_id)} />
          <Fact
            label="Splits"
            value={deal.splits.map((s) => `${nameOf(s.user_id)} ${sharePercent(s.percent)}`).join(", ")}
          />
          {deal.approved_at && <Fact label="Approved" value={date(deal.approved_at)} />}
          {deal.paid_at && <Fact label="Paid" value={date(deal.paid_at)} />}
        </SimpleGrid>
        <CancellationFacts deal={deal} />
        {deal.rejection_reason && (
          <Text size="sm" mt="sm">
            Rejected: {deal.rejection_reason}
          </Text>
        )}
        {deal.explanation && (
          <Text size="sm" mt="sm" c="gray.7">
            {deal.explanation.summary}
          </Text>
        )}
      </Card>

      <DealDisputes dealId={deal.id} currency={deal.total_commission_currency} />

      <Stack gap="sm">
        <Title order={3}>Commission lines</Title>
        <DealLines lines={deal.commissions} nameOf={nameOf} />
      </Stack>

      <Stack gap="sm">
        <Title order={3}>History</Title>
        <DealHistory dealId={deal.id} />
      </Stack>

      <Modal
        opened={adjusting}
        onClose={() => setAdjusting(false)}
        title={`Adjust ${deal.opportunity_name}`}
        closeButtonProps={{ "aria-label": "Close" }}
      >
        <Suspense fallback={<LoadingState label="Loading the form" lines={3} />}>
          <AdjustmentForm deal={deal} onDone={() => setAdjusting(false)} />
        </Suspense>
      </Modal>

      <Modal
        opened={disputing}
        onClose={() => setDisputing(false)}
        title="Dispute this deal"
        closeButtonProps={{ "aria-label": "Close" }}
      >
        <Suspense fallback={<LoadingState label="Loading the form" lines={3} />}>
          <DisputeForm
            dealId={deal.id}
            currency={deal.total_commission_currency}
            ownAmount={own?.amount}
            onDone={() => setDisputing(false)}
          />
        </Suspense>
      </Modal>
    </Stack>
  );
}

/**
 * The person's own commission on the deal: the sum of their lines that are not void (exact, lib/money),
 * and their split's percent; undefined when the deal credits them nothing.
 */
function ownShare(deal: DealDetail, userId: string): { amount: number; percent?: number } | undefined {
  // In the deal total's currency, as the total and dispute amounts are (API.md §15: never summed across).
  const lines = deal.commissions.filter(
    (line) => line.user_id === userId && line.status !== "void" && line.currency === deal.total_commission_currency,
  );
  const split = deal.splits.find((s) => s.user_id === userId);
  if (lines.length === 0 && !split) return undefined;
  return {
    amount: sumMoney(lines.map((line) => line.amount)),
    percent: split && deal.splits.length > 1 ? split.percent : undefined,
  };
}

function Fact({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="gray.7" data-testid={testId && `${testId}-label`}>
        {label}
      </Text>
      <Text fw={500} data-testid={testId} style={{ overflowWrap: "anywhere" }}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="gray.7" data-testid={testId && `${testId}-hint`}>
          {hint}
        </Text>
      )}
    </div>
  );
}

function DealDisputes({ dealId, currency }: { dealId: string; currency: string }) {
  const disputes = useQuery(dealDisputes(dealId));
  if (disputes.isPending) return <LoadingState label="Loading disputes" lines={1} />;
  if (disputes.isError) return <ErrorState error={disputes.error} retry={() => void disputes.refetch()} />;
  if (disputes.data.data.length === 0) return null;
  return (
    <Stack gap="sm">
      <Title order={3}>Disputes</Title>
      <DisputeList disputes={disputes.data.data} currency={currency} />
    </Stack>
  );
}
