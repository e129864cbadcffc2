import { Stack, Text, Title } from "@mantine/core";
import { useIsFetching } from "@tanstack/react-query";
import { useRenderedMark } from "../../ui/useRenderedMark";
import { DealsToPay } from "./components/DealsToPay";
import { PayoutGroups } from "./components/PayoutGroups";

/** Finance's payout run: what is owed by rep and period, and the approved deals to mark paid. */
export function PayoutsPage() {
  useRenderedMark(useIsFetching() === 0);
  return (
    <Stack gap="lg" maw={1100}>
      <div>
        <Title order={2}>Payouts</Title>
        <Text size="sm" c="gray.7">
          Approved commission not yet paid. Marking a deal paid records a payment made elsewhere.
        </Text>
      </div>
      <PayoutGroups />
      <DealsToPay />
    </Stack>
  );
}
