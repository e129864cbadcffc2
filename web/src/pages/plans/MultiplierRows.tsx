import { ActionIcon, Button, Group, Select, Stack, Text, TextInput } from "@mantine/core";
import { DEAL_TYPE_LABELS } from "../../ui/labels";
import type { PlanValues } from "./plan-values";

type Multiplier = PlanValues["multipliers"][number];
const DEAL_TYPES = Object.entries(DEAL_TYPE_LABELS).map(([value, label]) => ({ value, label }));

/** Factors by deal type (a renewal at 0.5 counts half its credit); a type not listed counts in full. */
export function MultiplierRows(props: {
  multipliers: Multiplier[];
  onChange: (multipliers: Multiplier[]) => void;
  /** By the form's row: `multipliers[0].type`, `multipliers[0].factor`; `deal_type_multipliers` for the whole. */
  errors: Record<string, string>;
}) {
  const { multipliers, onChange, errors } = props;
  const set = (i: number, column: keyof Multiplier, value: string) =>
    onChange(multipliers.map((m, j) => (j === i ? { ...m, [column]: value } : m)));
  const unused = DEAL_TYPES.find((t) => !multipliers.some((m) => m.type === t.value))?.value ?? "";
  return (
    <Stack gap="xs">
      {multipliers.length === 0 && (
        <Text size="sm" c="dimmed">
          None: every deal type counts in full.
        </Text>
      )}
      {errors.deal_type_multipliers && (
        <Text size="sm" c="red.8" role="alert">
          {errors.deal_type_multipliers}
        </Text>
      )}
      {multipliers.map((m, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a multiplier is its position while being edited
        <Group key={i} align="start" gap="sm" wrap="nowrap" data-testid="multiplier-row">
          <Select
            label={`Multiplier ${i + 1} deal type`}
            description="Types not listed count in full"
            data={DEAL_TYPES}
            value={m.type || null}
            onChange={(value) => set(i, "type", value ?? "")}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            error={errors[`multipliers[${i}].type`]}
            style={{ flex: 1 }}
          />
          <TextInput
            label={`Multiplier ${i + 1} factor`}
            description="1 counts in full, 0.5 half"
            inputMode="decimal"
            value={m.factor}
            onChange={(e) => set(i, "factor", e.currentTarget.value)}
            error={errors[`multipliers[${i}].factor`]}
            style={{ flex: 1 }}
          />
          <ActionIcon
            variant="subtle"
            color="red.8"
            size="lg"
            mt={44}
            aria-label={`Remove multiplier ${i + 1}`}
            onClick={() => onChange(multipliers.filter((_, j) => j !== i))}
          >
            ×
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          size="xs"
          variant="light"
          disabled={multipliers.length >= DEAL_TYPES.length}
          onClick={() => onChange([...multipliers, { type: unused, factor: "" }])}
        >
          Add a multiplier
        </Button>
      </Group>
    </Stack>
  );
}
