import { Stack, Text, Title } from "@mantine/core";
import { useIsFetching } from "@tanstack/react-query";
import { useState } from "react";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { DealsToPay } from "./DealsToPay";
import { PayoutGroups } from "./PayoutGroups";

/** Finance's payout run: what is owed by rep and period, and the approved deals to mark paid. */
export function PayoutsPage() {
  useRenderedMark(useIsFetching() === 0);
  // A group's rep narrows the deals below to theirs: the owner filter is shared by both sections.
  const [ownerId, setOwnerId] = useState<string | null>(null);
  return (
    <Stack gap="lg" maw={1100}>
      <div>
        <Title order={2}>Payouts</Title>
        <Text size="sm" c="gray.7">
          Approved commission not yet paid. Marking a deal paid records a payment made elsewhere.
        </Text>
      </div>
      <PayoutGroups showDealsOf={setOwnerId} />
      <DealsToPay ownerId={ownerId} setOwnerId={setOwnerId} />
    </Stack>
  );
}
