import { Anchor, Badge, Button, Card, Collapse, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { dealQuery } from "../../data/deals/queries";
import type { Dispute } from "../../data/disputes/queries";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import { date, money } from "../../lib/format";
import { sumMoney } from "../../lib/money";
import { DealLines } from "../../ui/commission/DealLines";
import { DISPUTE_OUTCOME_LABELS, DISPUTE_REASON_LABELS } from "../../ui/labels";
import { ErrorState, LoadingState } from "../../ui/states";
import { ResolveForm } from "./ResolveForm";

/** One dispute with its deal as it stands now: the rep, what they expect, the current total and lines. */
export function DisputeCard({ dispute }: { dispute: Dispute }) {
  const deal = useQuery(dealQuery(dispute.deal_id));
  const people = useQuery({ ...everyoneQuery(), select: namesOf });
  const [showLines, setShowLines] = useState(false);
  const [resolving, setResolving] = useState(false);
  const nameOf = (id: string) => people.data?.get(id) ?? id;

  if (deal.isPending) return <LoadingState label="Loading the disputed deal" lines={2} />;
  if (deal.isError) return <ErrorState error={deal.error} retry={() => void deal.refetch()} />;
  const { currency } = deal.data;
  const amount = (value: number | null) => (value === null ? "—" : money(value, currency));
  const linesId = `lines-${dispute.id}`;
  // API.md §20 (b): a rep's or manager's dispute is about their own lines, and its adjustment is theirs.
  const scoped = dispute.amount_scope === "user" ? dispute.scope_user_id : null;
  const person = nameOf(scoped ?? deal.data.owner_id);
  const currentTotal = scoped
    ? sumMoney(deal.data.commissions.filter((l) => l.user_id === scoped && l.status !== "void").map((l) => l.amount))
    : deal.data.total_commission;

  return (
    <Card withBorder data-testid="queue-dispute" data-dispute-id={dispute.id} data-deal-id={dispute.deal_id}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={2}>
            <Anchor
              fw={600}
              c="indigo.9"
              renderRoot={(props) => <Link {...props} to="/deals/$dealId" params={{ dealId: dispute.deal_id }} />}
            >
              {deal.data.opportunity_name}
            </Anchor>
            <Text size="xs" c="gray.7">
              Opened {date(dispute.created_at)} · deal {deal.data.status}
            </Text>
          </Stack>
          <Badge color={dispute.status === "open" ? "red.9" : "teal.9"}>{dispute.status}</Badge>
        </Group>

        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
          <Fact label="Rep" value={person} />
          <Fact label="Reason" value={DISPUTE_REASON_LABELS[dispute.reason]} />
          <Fact label="Amounts" value={scoped ? `${person}'s own lines` : "the deal's total"} testId="queue-scope" />
          <Fact label="Expected total" value={amount(dispute.expected_amount)} testId="queue-expected" />
          <Fact label="Current total" value={money(currentTotal, currency)} testId="queue-current" />
          {dispute.outcome && <Fact label="Outcome" value={DISPUTE_OUTCOME_LABELS[dispute.outcome]} />}
          {dispute.status === "resolved" && (
            <Fact label="Accepted total" value={amount(dispute.resolved_amount)} testId="queue-resolved" />
          )}
          {dispute.resolved_at && <Fact label="Resolved" value={date(dispute.resolved_at)} />}
        </SimpleGrid>
        {dispute.description && (
          <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
            {dispute.description}
          </Text>
        )}
        {dispute.resolution_note && (
          <Text size="sm" c="gray.7">
            Note: {dispute.resolution_note}
          </Text>
        )}

        <Group gap="xs">
          <Button
            variant="default"
            size="xs"
            onClick={() => setShowLines((s) => !s)}
            aria-expanded={showLines}
            aria-controls={linesId}
          >
            {showLines ? "Hide lines" : `Show lines (${deal.data.commissions.length})`}
          </Button>
          {dispute.status === "open" && deal.data.status === "disputed" && !resolving && (
            <Button size="xs" onClick={() => setResolving(true)}>
              Resolve
            </Button>
          )}
        </Group>
        <Collapse expanded={showLines} id={linesId}>
          {showLines && <DealLines compact lines={deal.data.commissions} nameOf={nameOf} />}
        </Collapse>
        {resolving && (
          <Card withBorder bg="gray.0">
            <ResolveForm
              dispute={dispute}
              currentTotal={currentTotal}
              currency={currency}
              rep={person}
              totalName={scoped ? `${person}'s total` : "the deal's total"}
              onDone={() => setResolving(false)}
            />
          </Card>
        )}
      </Stack>
    </Card>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="gray.7">
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId} style={{ overflowWrap: "anywhere" }}>
        {value}
      </Text>
    </div>
  );
}
