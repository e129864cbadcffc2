import { Paper, SimpleGrid, Text } from "@mantine/core";
import type { PlanImpact } from "../../data/comp-plans/mutations";
import { money, signedMoney } from "../../lib/format";
import { differenceOfMoney } from "../../lib/money";
import { AnchorLink } from "../../ui/AnchorLink";
import { type Column, RecordTable } from "../../ui/DataTable";

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

type RepPeriod = { user_id: string; name: string } & PlanImpact["users"][number]["periods"][number];

/** Each affected rep's periods: pending and locked totals before and after, and their difference. */
export function ImpactByRep({ impact, currency }: { impact: PlanImpact; currency: string }) {
  const nowrap = () => ({ style: { whiteSpace: "nowrap" } });
  const amount = (header: string, of: (p: RepPeriod) => number): Column<RepPeriod> => ({
    header,
    numeric: true,
    props: nowrap,
    cell: (p) => money(of(p), currency),
  });
  const delta = (header: string, id: string, of: (p: RepPeriod) => { before: number; after: number }) => ({
    header,
    id,
    numeric: true,
    props: () => ({ fw: 600, ...nowrap() }),
    cell: (p: RepPeriod) => signedMoney(differenceOfMoney(of(p).after, of(p).before), currency),
  });
  const columns: Column<RepPeriod>[] = [
    {
      header: "Rep",
      cell: (p) => (
        <AnchorLink to="/statements/$period" params={{ period: p.period }} search={{ user: p.user_id }}>
          {p.name}
        </AnchorLink>
      ),
    },
    { header: "Period", cell: (p) => p.period },
    amount("Pending now", (p) => p.pending.before),
    amount("Pending after", (p) => p.pending.after),
    delta("Pending change", "pending-delta", (p) => p.pending),
    amount("Locked now", (p) => p.locked.before),
    amount("Locked after", (p) => p.locked.after),
    delta("Locked change", "locked-delta", (p) => p.locked),
  ];
  const rows = impact.users.flatMap((user) =>
    user.periods.map((p) => ({ ...p, user_id: user.user_id, name: user.name })),
  );
  return (
    <RecordTable
      label="Impact by rep and period"
      testId="impact-by-rep"
      minWidth={860}
      table={{ striped: true }}
      columns={columns}
      rows={rows}
      rowKey={(p) => `${p.user_id}-${p.period}`}
      rowProps={(p) => ({ "data-user-id": p.user_id, "data-period": p.period })}
    />
  );
}
