import { Stack, Text } from "@mantine/core";
import type { PayoutRun } from "../../data/payout-runs/queries";
import { money } from "../../lib/format";

export const RUN_STATUS_LABELS: Record<PayoutRun["status"], string> = {
  draft: "Draft",
  finalized: "Finalized",
  cancelled: "Cancelled",
};

export const RUN_STATUS_COLORS: Record<PayoutRun["status"], string> = {
  draft: "yellow.9",
  finalized: "teal.9",
  cancelled: "gray.7",
};

/** A run's net pay, one line per currency (never summed across currencies). */
export function RunTotals({ totals }: { totals: PayoutRun["totals"] }) {
  if (totals.length === 0) return <Text size="sm">Nothing to pay</Text>;
  return (
    <Stack gap={0}>
      {totals.map((t) => (
        <Text key={t.currency} size="sm" data-testid="run-net-pay" data-currency={t.currency}>
          {money(t.net_pay, t.currency)}
        </Text>
      ))}
    </Stack>
  );
}
