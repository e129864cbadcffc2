import { Badge, Button, Group, Table, Text } from "@mantine/core";
import type { Spiff } from "../../data/spiffs/queries";
import { date, money, percent } from "../../lib/format";
import { today } from "../../lib/periods";
import { DEAL_TYPE_LABELS } from "../../ui/labels";
import { ScrollTable } from "../../ui/ScrollTable";
import { type SpiffState, stateOf } from "./spiffState";

const STATE_BADGES: Record<SpiffState, { label: string; color: string }> = {
  running: { label: "Running", color: "green.8" },
  upcoming: { label: "Upcoming", color: "blue.8" },
  ended: { label: "Ended", color: "gray.7" },
  inactive: { label: "Inactive", color: "gray.7" },
};

interface Props {
  spiffs: Spiff[];
  names: Map<string, string>;
  /** Admins edit and end; finance reads (the buttons are absent). */
  canEdit: boolean;
  onEdit: (spiff: Spiff) => void;
  onEnd: (spiff: Spiff) => void;
}

export function SpiffTable({ spiffs, names, canEdit, onEdit, onEnd }: Props) {
  return (
    <ScrollTable minWidth={canEdit ? 980 : 820} label="SPIFFs">
      <Table striped verticalSpacing="sm" aria-label="SPIFFs" data-testid="spiff-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Window</Table.Th>
            <Table.Th scope="col">Payout</Table.Th>
            <Table.Th scope="col">Who qualifies</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            {canEdit && <Table.Th scope="col">Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {spiffs.map((spiff) => {
            const state = stateOf(spiff);
            return (
              <Table.Tr key={spiff.id} data-spiff-id={spiff.id}>
                <Table.Th scope="row" fw={500}>
                  {spiff.name}
                  {spiff.description && (
                    <Text size="xs" c="gray.7" fw={400} lineClamp={2} maw={260}>
                      {spiff.description}
                    </Text>
                  )}
                </Table.Th>
                <Table.Td data-col="window" style={{ whiteSpace: "nowrap" }}>
                  {date(spiff.starts_on)} – {date(spiff.ends_on)}
                </Table.Td>
                <Table.Td data-col="payout">
                  {spiff.payout.type === "flat"
                    ? `${money(spiff.payout.amount, spiff.currency)} per deal`
                    : `${percent(spiff.payout.rate, 4)} of credit`}
                </Table.Td>
                <Table.Td data-col="criteria">
                  <Criteria spiff={spiff} names={names} />
                </Table.Td>
                <Table.Td data-col="status">
                  <Badge color={STATE_BADGES[state].color} variant="dot" miw="max-content">
                    {STATE_BADGES[state].label}
                  </Badge>
                </Table.Td>
                {canEdit && (
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="light" onClick={() => onEdit(spiff)} aria-label={`Edit ${spiff.name}`}>
                        Edit
                      </Button>
                      {/* Running and not already ending today: End moves the last day to today. */}
                      {state === "running" && spiff.ends_on > today() && (
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          onClick={() => onEnd(spiff)}
                          aria-label={`End ${spiff.name}`}
                        >
                          End
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

/** The criteria in words, each on its line; "Every deal" when none is set. */
function Criteria({ spiff, names }: { spiff: Spiff; names: Map<string, string> }) {
  const { min_arr_amount, deal_types, user_ids } = spiff.criteria;
  const parts = [
    min_arr_amount !== null && `ARR at least ${money(min_arr_amount, spiff.currency)}`,
    deal_types?.map((t) => DEAL_TYPE_LABELS[t]).join(", "),
    user_ids && `Only ${user_ids.map((id) => names.get(id) ?? id).join(", ")}`,
  ].filter((part): part is string => Boolean(part));
  return (
    <Text size="sm" component="div">
      {parts.length === 0 ? `Every ${spiff.currency} deal` : parts.map((part) => <div key={part}>{part}</div>)}
    </Text>
  );
}
