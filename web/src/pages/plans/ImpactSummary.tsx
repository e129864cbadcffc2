import { Paper, SimpleGrid, Table, Text } from "@mantine/core";
import type { PlanImpact } from "../../data/comp-plans/mutations";
import { money, signedMoney } from "../../lib/format";
import { differenceOfMoney } from "../../lib/money";
import { AnchorLink } from "../../ui/AnchorLink";
import { ScrollTable } from "../../ui/ScrollTable";

/** The change in numbers: who and how much, pending (what applying moves) and locked (what a retroactive apply writes). */
export function ImpactSummary({ impact, currency }: { impact: PlanImpact; currency: string }) {
  const s = impact.summary;
  const stats: [string, string, string][] = [
    ["People affected", String(s.users), "users"],
    ["Deals", String(s.deals), "deals"],
    ["Changed lines", String(s.lines), "lines"],
    ["Pending change", signedMoney(s.pending_delta, currency), "pending_delta"],
    ["Locked change", signedMoney(s.locked_delta, currency), "locked_delta"],
    [
      "Version",
      impact.from_version === impact.to_version
        ? `stays v${impact.from_version}`
        : `v${impact.from_version} → v${impact.to_version}`,
      "version",
    ],
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="xs" data-testid="impact-summary">
      {stats.map(([label, value, key]) => (
        <Paper key={key} withBorder p="xs">
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={700} data-stat={key}>
            {value}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** Each affected rep's periods: pending and locked totals before and after, and their difference. */
export function ImpactByRep({ impact, currency }: { impact: PlanImpact; currency: string }) {
  const cell = (amount: number) => (
    <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>
      {money(amount, currency)}
    </Table.Td>
  );
  const delta = (after: number, before: number, col: string) => (
    <Table.Td ta="right" fw={600} style={{ whiteSpace: "nowrap" }} data-col={col}>
      {signedMoney(differenceOfMoney(after, before), currency)}
    </Table.Td>
  );
  return (
    <ScrollTable minWidth={860} label="Impact by rep and period">
      <Table aria-label="Impact by rep and period" striped data-testid="impact-by-rep">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Rep</Table.Th>
            <Table.Th>Period</Table.Th>
            <Table.Th ta="right">Pending now</Table.Th>
            <Table.Th ta="right">Pending after</Table.Th>
            <Table.Th ta="right">Pending change</Table.Th>
            <Table.Th ta="right">Locked now</Table.Th>
            <Table.Th ta="right">Locked after</Table.Th>
            <Table.Th ta="right">Locked change</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {impact.users.flatMap((user) =>
            user.periods.map((p) => (
              <Table.Tr key={`${user.user_id}-${p.period}`} data-user-id={user.user_id} data-period={p.period}>
                <Table.Td>
                  <AnchorLink to="/statements/$period" params={{ period: p.period }} search={{ user: user.user_id }}>
                    {user.name}
                  </AnchorLink>
                </Table.Td>
                <Table.Td>{p.period}</Table.Td>
                {cell(p.pending.before)}
                {cell(p.pending.after)}
                {delta(p.pending.after, p.pending.before, "pending-delta")}
                {cell(p.locked.before)}
                {cell(p.locked.after)}
                {delta(p.locked.after, p.locked.before, "locked-delta")}
              </Table.Tr>
            )),
          )}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
