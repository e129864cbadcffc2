import { Card, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import type { CompPlan } from "../../data/comp-plans/queries";
import { decimal, money, percent } from "../../lib/format";
import { DEAL_TYPE_LABELS } from "../../ui/labels";
import { ScrollTable } from "../../ui/ScrollTable";
import { effectiveSpan } from "./PlanList";

/** The plan's current terms as the API states them: rates, bands, multipliers, minimum, cap, quota; an override plan's levels. */
export function PlanTerms({ plan }: { plan: CompPlan }) {
  if (plan.kind === "override") return <OverrideTerms plan={plan} />;
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
        <Facts facts={facts} />
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

function Facts({ facts }: { facts: [string, string][] }) {
  return (
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
  );
}

/** "Direct reports" for depth 1, "3 levels below" for deeper ones. */
const depthInWords = (depth: number) => (depth === 1 ? "Direct reports" : `${depth} levels below`);

/** An override plan's terms (API.md §16): its rate per depth below the manager; no quota, tiers or limits. */
function OverrideTerms({ plan }: { plan: CompPlan }) {
  const facts: [string, string][] = [
    ["Kind", "Override: pays a manager on the credits below them"],
    ["Period", plan.period],
    ["Currency", plan.currency],
    ["Effective", effectiveSpan(plan)],
  ];
  const levels = plan.override_levels ?? [];
  return (
    <Card withBorder>
      <Stack gap="md">
        <Title order={3} size="h4">
          Current terms (version {plan.version})
        </Title>
        <Facts facts={facts} />
        <Stack gap="xs">
          <Title order={4} size="h5">
            Override levels
          </Title>
          <Text size="sm" c="dimmed">
            Each level pays its rate on the credits of the people exactly that far below the manager on the deal's close
            date, never on the manager's own credit.
          </Text>
          <ScrollTable minWidth={300} label="Override levels">
            <Table aria-label="Override levels" striped data-testid="level-table" maw={480}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Depth</Table.Th>
                  <Table.Th>Whose credits</Table.Th>
                  <Table.Th ta="right">Rate</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {levels.map((level) => (
                  <Table.Tr key={level.depth} data-depth={level.depth}>
                    <Table.Td data-col="depth">{level.depth}</Table.Td>
                    <Table.Td>{depthInWords(level.depth)}</Table.Td>
                    <Table.Td ta="right" data-col="rate">
                      {percent(level.rate, 4)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        </Stack>
      </Stack>
    </Card>
  );
}
