import { Badge, Drawer, Group, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { dealQuery } from "../../data/deals/queries";
import { money } from "../../lib/format";
import { AnchorLink } from "../../ui/AnchorLink";
import { DealLines } from "../../ui/commission/DealLines";
import { ErrorState, LoadingState } from "../../ui/states";

/** A deal's lines and their explanations beside the queue (the deal feature's own component). */
export function DealDrawer(props: { dealId: string | null; onClose: () => void; nameOf: (id: string) => string }) {
  const { dealId, onClose, nameOf } = props;
  return (
    <Drawer
      opened={dealId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title="Deal lines"
      closeButtonProps={{ "aria-label": "Close" }}
    >
      {dealId && <DrawerBody dealId={dealId} nameOf={nameOf} />}
    </Drawer>
  );
}

function DrawerBody({ dealId, nameOf }: { dealId: string; nameOf: (id: string) => string }) {
  const deal = useQuery(dealQuery(dealId));
  if (deal.isPending) return <LoadingState label="Loading the deal's lines" lines={6} />;
  if (deal.isError) return <ErrorState error={deal.error} retry={() => void deal.refetch()} />;
  const d = deal.data;
  return (
    <Stack gap="md" data-testid="deal-drawer">
      <Stack gap={4}>
        <Text fw={700} size="lg">
          {d.opportunity_name}
        </Text>
        <Group gap="xs">
          <Badge color="indigo.8">{d.status}</Badge>
          <Text size="sm">
            {money(d.arr_amount, d.currency)} ARR · {nameOf(d.owner_id)} · total{" "}
            {money(d.total_commission, d.total_commission_currency)}
          </Text>
        </Group>
        {d.explanation && (
          <Text size="sm" c="gray.7">
            {d.explanation.summary}
          </Text>
        )}
        <AnchorLink to="/deals/$dealId" params={{ dealId: d.id }} size="sm">
          Open the deal page
        </AnchorLink>
      </Stack>
      <DealLines lines={d.commissions} nameOf={nameOf} />
    </Stack>
  );
}
