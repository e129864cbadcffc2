import { Card, Group, Paper, Stack, Text, Title } from "@mantine/core";
import type { StatementPlan } from "../../data/statements/queries";
import { money, percent } from "../../lib/format";
import { AttainmentGauge } from "./AttainmentGauge";

/** One plan in the period: the gauge, its cap, the band reached and what it takes to reach the next one. */
export function PlanProgress({ plan }: { plan: StatementPlan }) {
  return (
    <Card withBorder padding="md" data-testid={`plan-${plan.plan_id}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={4} size="h5">
            {plan.plan_name}
          </Title>
          {plan.current_rate !== null && (
            <Text size="sm" data-testid="current-rate">
              Current rate: <strong>{percent(plan.current_rate)}</strong>
            </Text>
          )}
        </Group>
        <CapStatus plan={plan} />
        <AttainmentGauge plan={plan} />
        <NextTier plan={plan} />
      </Stack>
    </Card>
  );
}

/** The plan's cap this period: how much of it the lines use, and when it is used up, that more deals pay nothing. */
function CapStatus({ plan }: { plan: StatementPlan }) {
  if (plan.cap_per_period === null) return null;
  const used = `${money(plan.earned, plan.currency)} of ${money(plan.cap_per_period, plan.currency)}`;
  if (!plan.cap_reached) {
    return (
      <Text size="sm" data-testid="cap">
        {used} cap used this period
      </Text>
    );
  }
  return (
    <Paper p="xs" bg="orange.0" data-testid="cap" data-cap-reached>
      <Text size="sm">
        <strong>Cap reached: {used}</strong> — further deals earn {money(0, plan.currency)} this period
      </Text>
    </Paper>
  );
}

function NextTier({ plan }: { plan: StatementPlan }) {
  if (plan.next_tier) {
    return (
      <Text size="sm" data-testid="next-tier">
        ARR to the next tier: <strong>{money(plan.next_tier.arr_to_reach, plan.currency)}</strong>, then{" "}
        <strong>{percent(plan.next_tier.rate)}</strong> from {percent(plan.next_tier.from_attainment)} of quota
      </Text>
    );
  }
  return (
    <Text size="sm" c="dimmed" data-testid="next-tier">
      {plan.tiers.length > 0 ? "Top band reached: no higher tier." : "One rate for all credit: no tiers."}
    </Text>
  );
}
