import { Group, Loader, Stack, Table, Text } from "@mantine/core";
import type { ReportingImpact } from "../../data/users/mutations";
import { amount } from "../../lib/format";
import { ActionError } from "../../ui/ActionError";
import { ScrollTable } from "../../ui/ScrollTable";
import type { MoveImpactState } from "./useMoveImpact";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The sentence a manager change's impact comes down to. */
export function moveSentence(impact: ReportingImpact): string {
  const s = impact.summary;
  if (s.lines === 0) return "This move changes no override line.";
  return `This move changes ${plural(s.lines, "override line", "override lines")} across ${plural(
    s.deals,
    "deal",
    "deals",
  )}: ${amount(s.pending_delta, true)}.`;
}

/**
 * What a manager change does to override lines before it is saved (API.md §16): the sentence, then the
 * largest changed lines (whose override, which deal, before → after). Amounts are each override plan's
 * currency, which the impact does not name, so they are shown without a symbol.
 */
export function MoveImpact({ state, names }: { state: MoveImpactState; names: Map<string, string> }) {
  const { shown, current, updating, error } = state;
  if (error) return <ActionError error={error} />;
  if (!shown) {
    return (
      <Group gap="xs" aria-live="polite" aria-busy="true">
        <Loader size="xs" aria-hidden />
        <Text size="sm" c="gray.7">
          Working out what this move changes…
        </Text>
      </Group>
    );
  }
  const lines = shown.lines.data;
  const nameOf = (id: string) => names.get(id) ?? shown.users.find((u) => u.user_id === id)?.name ?? id;
  return (
    <Stack
      gap="xs"
      data-testid="move-impact"
      data-current={current && !updating}
      aria-busy={updating}
      style={{ opacity: current ? 1 : 0.6 }}
    >
      <Text
        size="sm"
        fw={600}
        aria-live="polite"
        data-testid="move-impact-summary"
        data-lines={shown.summary.lines}
        data-deals={shown.summary.deals}
        data-delta={shown.summary.pending_delta}
      >
        {moveSentence(shown)}
      </Text>
      {lines.length > 0 && (
        <ScrollTable minWidth={360} label="Override lines this move changes">
          <Table aria-label="Override lines this move changes" fz="xs" striped data-testid="move-impact-lines">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Manager</Table.Th>
                <Table.Th scope="col">Deal</Table.Th>
                <Table.Th scope="col" ta="right">
                  Before → after
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((line) => (
                <Table.Tr
                  key={line.line_id ?? `${line.deal_id}-${line.user_id}`}
                  data-user-id={line.user_id}
                  data-deal-id={line.deal_id}
                  data-before={line.before}
                  data-after={line.after}
                >
                  <Table.Td>{nameOf(line.user_id)}</Table.Td>
                  <Table.Td>{line.opportunity_name}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>
                    {amount(line.before)} → {amount(line.after)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      {shown.lines.meta.total > lines.length && (
        <Text size="xs" c="gray.7">
          The {lines.length} largest of {shown.lines.meta.total} changed lines.
        </Text>
      )}
    </Stack>
  );
}
