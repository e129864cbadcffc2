import { Card, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import type { CompPlan } from "../../data/comp-plans/queries";
import { decimal, money, percent } from "../../lib/format";
import { DEAL_TYPE_LABELS } from "../../ui/labels";
import { ScrollTable } from "../../ui/ScrollTable";
import { effectiveSpan } from "./PlanList";

/** The plan's current terms as the API states them: rates, bands, multipliers, minimum, cap, quota. */
export function PlanTerms({ plan }: { plan: CompPlan }) {
  const facts: [string, string][] = [
    ["Period", plan.period],
    ["Currency", plan.currency],
    ["Quota per period", plan.quota === null ? "none" : money(plan.quota, plan.currency)],
    ["Base rate", plan.base_rate === null ? "none (tiers apply)" : percent(plan.base_rate, 4)],
    ["Minimum deal amount", plan.min_deal_amount === null ? "none" : money(plan.min_deal_amount, plan.currency)],
    ["Cap per period", plan.cap_per_period === null ? "none" : money(plan.cap_per_period, plan.currency)],
    ["Effective", effectiveSpan(plan)],
  ];
  const multipliers = Object.entries(plan.deal_type_multipliers);
  return (
    <Card withBorder>
      <Stack gap="md">
        <Title order={3} size="h4">
          Current terms (version {plan.version})
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" component="dl" m={0} data-testid="plan-facts">
          {facts.map(([name, value]) => (
            <div key={name}>
              <Text component="dt" size="xs" c="dimmed">
                {name}
              </Text>
              <Text component="dd" m={0} fw={500} data-fact={name}>
                {value}
              </Text>
            </div>
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Stack gap="xs">
            <Title order={4} size="h5">
              Tiers
            </Title>
            {plan.tiers.length === 0 ? (
              <Text size="sm" c="dimmed">
                No tiers: the base rate applies to all credit.
              </Text>
            ) : (
              <ScrollTable minWidth={300} label="Tiers">
                <Table aria-label="Tiers" striped data-testid="tier-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>From attainment</Table.Th>
                      <Table.Th>To</Table.Th>
                      <Table.Th ta="right">Rate</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {plan.tiers.map((tier, i) => {
                      const next = plan.tiers[i + 1];
                      return (
                        <Table.Tr key={tier.from_attainment}>
                          <Table.Td>{percent(tier.from_attainment, 4)} of quota</Table.Td>
                          <Table.Td>{next ? percent(next.from_attainment, 4) : "and above"}</Table.Td>
                          <Table.Td ta="right" data-col="rate">
                            {percent(tier.rate, 4)}
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </ScrollTable>
            )}
          </Stack>
          <Stack gap="xs">
            <Title order={4} size="h5">
              Deal type multipliers
            </Title>
            {multipliers.length === 0 ? (
              <Text size="sm" c="dimmed">
                None: every deal type counts in full.
              </Text>
            ) : (
              <ScrollTable minWidth={240} label="Deal type multipliers">
                <Table aria-label="Deal type multipliers" striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Deal type</Table.Th>
                      <Table.Th ta="right">Factor</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {multipliers.map(([type, factor]) => (
                      <Table.Tr key={type}>
                        <Table.Td>{DEAL_TYPE_LABELS[type as keyof typeof DEAL_TYPE_LABELS] ?? type}</Table.Td>
                        <Table.Td ta="right">× {decimal(factor, 6)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollTable>
            )}
          </Stack>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
