import { Badge, Button, Group, Text } from "@mantine/core";
import type { Spiff } from "../../data/spiffs/queries";
import { date, money, percent } from "../../lib/format";
import { today } from "../../lib/periods";
import type { Column } from "../../ui/DataTable";
import { DEAL_TYPE_LABELS } from "../../ui/labels";
import { type SpiffState, stateOf } from "./spiffState";

const STATE_BADGES: Record<SpiffState, { label: string; color: string }> = {
  running: { label: "Running", color: "green.8" },
  upcoming: { label: "Upcoming", color: "blue.8" },
  ended: { label: "Ended", color: "gray.7" },
  inactive: { label: "Inactive", color: "gray.7" },
};

/** The SPIFFs' columns; admins edit and end (finance reads: the column of buttons is absent). */
export function spiffColumns(props: {
  names: Map<string, string>;
  canEdit: boolean;
  onEdit: (spiff: Spiff) => void;
  onEnd: (spiff: Spiff) => void;
}): Column<Spiff>[] {
  const { names, canEdit, onEdit, onEnd } = props;
  const columns: Column<Spiff>[] = [
    {
      header: "Name",
      rowHeader: true,
      cell: (spiff) => (
        <>
          {spiff.name}
          {spiff.description && (
            <Text size="xs" c="gray.7" fw={400} lineClamp={2} maw={260}>
              {spiff.description}
            </Text>
          )}
        </>
      ),
    },
    {
      header: "Window",
      id: "window",
      props: () => ({ style: { whiteSpace: "nowrap" } }),
      cell: (spiff) => `${date(spiff.starts_on)} – ${date(spiff.ends_on)}`,
    },
    {
      header: "Payout",
      id: "payout",
      cell: (spiff) =>
        spiff.payout.type === "flat"
          ? `${money(spiff.payout.amount, spiff.currency)} per deal`
          : `${percent(spiff.payout.rate, 4)} of credit`,
    },
    { header: "Who qualifies", id: "criteria", cell: (spiff) => <Criteria spiff={spiff} names={names} /> },
    {
      header: "Status",
      id: "status",
      cell: (spiff) => {
        const badge = STATE_BADGES[stateOf(spiff)];
        return (
          <Badge color={badge.color} variant="dot" miw="max-content">
            {badge.label}
          </Badge>
        );
      },
    },
  ];
  if (!canEdit) return columns;
  return [
    ...columns,
    {
      header: "Actions",
      cell: (spiff) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="light" onClick={() => onEdit(spiff)} aria-label={`Edit ${spiff.name}`}>
            Edit
          </Button>
          {/* Running and not already ending today: End moves the last day to today. */}
          {stateOf(spiff) === "running" && spiff.ends_on > today() && (
            <Button size="xs" variant="light" color="red" onClick={() => onEnd(spiff)} aria-label={`End ${spiff.name}`}>
              End
            </Button>
          )}
        </Group>
      ),
    },
  ];
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
