import { ActionIcon, Button, Group, Stack, Table, Text, TextInput, VisuallyHidden } from "@mantine/core";
import { percent } from "../../lib/format";
import { ScrollTable } from "../../ui/ScrollTable";
import { bandsInWords, percentShown, type TierValues } from "./plan-values";

const MAX_TIERS = 50;

interface Props {
  tiers: TierValues[];
  onChange: (tiers: TierValues[]) => void;
  /** By parameter: `tiers[1].rate`, `tiers[1].from_attainment`. */
  errors: Record<string, string>;
}

/**
 * The plan's bands of quota attainment, edited in percent: where each starts (the first at 0 %) and its
 * rate; where it ends is where the next starts, so bands never leave a gap.
 */
export function TierTable({ tiers, onChange, errors }: Props) {
  const set = (i: number, column: keyof TierValues, value: string) =>
    onChange(tiers.map((t, j) => (j === i ? { ...t, [column]: value } : t)));
  const words = bandsInWords(tiers);
  return (
    <Stack gap="xs">
      <ScrollTable minWidth={360} label="Tiers">
        <Table aria-label="Tiers" data-testid="tier-editor" verticalSpacing={6} layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={64}>Tier</Table.Th>
              <Table.Th>From (% of quota)</Table.Th>
              <Table.Th w={100}>Up to</Table.Th>
              <Table.Th>Rate (%)</Table.Th>
              <Table.Th w={40}>
                <VisuallyHidden>Remove</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tiers.map((tier, i) => {
              const n = i + 1;
              const next = tiers[i + 1];
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: a tier is its position while being edited
                <Table.Tr key={i} data-testid="tier-row" style={{ verticalAlign: "top" }}>
                  <Table.Td pt={14} style={{ whiteSpace: "nowrap" }}>
                    Tier {n}
                  </Table.Td>
                  <Table.Td>
                    {i === 0 ? (
                      <Text size="sm" pt={8} data-testid="first-tier-start">
                        {percent(0)}
                      </Text>
                    ) : (
                      <TextInput
                        aria-label={`Tier ${n} starts at (% of quota)`}
                        inputMode="decimal"
                        rightSection="%"
                        value={tier.from}
                        onChange={(e) => set(i, "from", e.currentTarget.value)}
                        error={errors[`tiers[${i}].from_attainment`]}
                      />
                    )}
                  </Table.Td>
                  <Table.Td pt={14}>
                    <Text size="sm" data-col="up-to" style={{ whiteSpace: "nowrap" }}>
                      {next ? (percentShown(next.from) ?? "…") : "and above"}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`Tier ${n} rate (%)`}
                      inputMode="decimal"
                      rightSection="%"
                      value={tier.rate}
                      onChange={(e) => set(i, "rate", e.currentTarget.value)}
                      error={errors[`tiers[${i}].rate`]}
                    />
                  </Table.Td>
                  <Table.Td>
                    {i > 0 && (
                      <ActionIcon
                        variant="subtle"
                        color="red.8"
                        size="lg"
                        aria-label={`Remove tier ${n}`}
                        onClick={() => onChange(tiers.filter((_, j) => j !== i))}
                      >
                        ×
                      </ActionIcon>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {errors.tiers && (
        <Text size="sm" c="red.8" role="alert">
          {errors.tiers}
        </Text>
      )}
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Button
          size="xs"
          variant="light"
          disabled={tiers.length >= MAX_TIERS}
          onClick={() => onChange([...tiers, { from: "", rate: "" }])}
        >
          Add a tier
        </Button>
        {words && (
          <Text size="sm" c="dimmed" data-testid="bands-in-words">
            {words}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
