import { Badge, Card, List, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { dateTime, decimal, money, percent } from "../../../lib/format";
import { ScrollTable } from "../../../ui/ScrollTable";
import { ErrorState, LoadingState } from "../../../ui/states";
import { type AuditEvent, type CompPlan, planHistoryQuery } from "../queries";

type Field = keyof CompPlan;
const MONEY: Field[] = ["quota", "min_deal_amount", "cap_per_period"];
const FIELDS: Field[] = [
  "name",
  "description",
  "status",
  "currency",
  "period",
  "quota",
  "base_rate",
  "tiers",
  "deal_type_multipliers",
  "min_deal_amount",
  "cap_per_period",
  "effective_from",
  "effective_to",
];

/** A term as the audit row recorded it, written for a person. */
function shown(field: Field, value: unknown, currency: string): string {
  if (value === null || value === undefined) return "none";
  if (MONEY.includes(field)) return money(value as number, currency);
  if (field === "base_rate") return percent(value as number, 4);
  if (field === "tiers") {
    const tiers = value as CompPlan["tiers"];
    return tiers.length
      ? tiers.map((t) => `from ${percent(t.from_attainment, 4)}: ${percent(t.rate, 4)}`).join(", ")
      : "none";
  }
  if (field === "deal_type_multipliers") {
    const entries = Object.entries(value as Record<string, number>);
    return entries.length ? entries.map(([k, v]) => `${k} × ${decimal(v, 6)}`).join(", ") : "none";
  }
  return String(value);
}

/** What an edit changed, field by field, from the audit row's before and after. */
function changes(event: AuditEvent): { field: Field; before: string; after: string }[] {
  const before = event.before as Partial<CompPlan> | null;
  const after = event.after as Partial<CompPlan> | null;
  if (!before || !after) return [];
  const currency = after.currency ?? "USD";
  return FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f])).map((field) => ({
    field,
    before: shown(field, before[field], before.currency ?? currency),
    after: shown(field, after[field], currency),
  }));
}

/**
 * The plan's versions. The API states only the current terms (GET /comp-plans/{id}); an admin also reads
 * the audit log, whose rows keep each edit's before and after, so earlier versions are shown from there.
 */
export function PlanVersions({ plan, readsAudit }: { plan: CompPlan; readsAudit: boolean }) {
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={3} size="h4">
          Versions
        </Title>
        <Text size="sm">
          Version {plan.version} is current (last changed {dateTime(plan.updated_at)}). Lines keep the version they were
          calculated with.
        </Text>
        {readsAudit ? (
          <PlanHistory plan={plan} />
        ) : (
          <Text size="sm" c="dimmed">
            The API gives only the current terms; what earlier versions said is in the audit log, which admins read.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function PlanHistory({ plan }: { plan: CompPlan }) {
  const history = useQuery(planHistoryQuery(plan.id));
  if (history.error) return <ErrorState error={history.error} retry={() => void history.refetch()} />;
  if (!history.data) return <LoadingState label="Loading the plan's history" lines={2} />;
  const events = history.data.data.filter((e) => e.action === "comp_plan.create" || e.action === "comp_plan.update");
  if (events.length === 0) return <Text size="sm">No recorded changes.</Text>;
  return (
    <ScrollTable minWidth={640} label="Plan history">
      <Table aria-label="Plan history" data-testid="plan-history" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>By</Table.Th>
            <Table.Th>Version</Table.Th>
            <Table.Th>What changed</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => {
            const after = event.after as Partial<CompPlan> | null;
            const before = event.before as Partial<CompPlan> | null;
            const list = changes(event);
            return (
              <Table.Tr key={event.id}>
                <Table.Td style={{ whiteSpace: "nowrap" }}>{dateTime(event.created_at)}</Table.Td>
                <Table.Td>{event.actor.name}</Table.Td>
                <Table.Td style={{ whiteSpace: "nowrap" }}>
                  {before?.version !== undefined && before.version !== after?.version
                    ? `v${before.version} → v${after?.version}`
                    : `v${after?.version ?? "?"}`}
                </Table.Td>
                <Table.Td fz="sm">
                  {event.action === "comp_plan.create" ? (
                    <Badge variant="light">created</Badge>
                  ) : list.length === 0 ? (
                    "nothing"
                  ) : (
                    <List size="sm" spacing={2}>
                      {list.map((c) => (
                        <List.Item key={c.field}>
                          {c.field}: {c.before} → {c.after}
                        </List.Item>
                      ))}
                    </List>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
