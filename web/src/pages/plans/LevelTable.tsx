import { ActionIcon, Button, Group, Select, Stack, Table, Text, TextInput, VisuallyHidden } from "@mantine/core";
import { ScrollTable } from "../../ui/ScrollTable";
import { LEVEL_DEPTHS, type LevelValues, levelsInWords } from "./plan-values";

const DEPTHS = LEVEL_DEPTHS.map((depth) => ({
  value: depth,
  label: depth === "1" ? "1 (direct reports)" : `${depth} levels below`,
}));

interface Props {
  levels: LevelValues[];
  onChange: (levels: LevelValues[]) => void;
  /** By parameter: `override_levels`, `override_levels[1].depth`, `override_levels[1].rate`. */
  errors: Record<string, string>;
}

/**
 * An override plan's levels, edited in percent: the rate a manager earns on the credits of the people
 * `depth` levels below them (1 = their direct reports), at most one rate per depth, depths 1 to 5.
 */
export function LevelTable({ levels, onChange, errors }: Props) {
  const set = (i: number, column: keyof LevelValues, value: string) =>
    onChange(levels.map((l, j) => (j === i ? { ...l, [column]: value } : l)));
  const unused = LEVEL_DEPTHS.find((d) => !levels.some((l) => l.depth === d));
  const words = levelsInWords(levels);
  return (
    <Stack gap="xs">
      <ScrollTable minWidth={360} label="Override levels">
        <Table aria-label="Override levels" data-testid="level-editor" verticalSpacing={6} layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={72}>Level</Table.Th>
              <Table.Th>Depth below the manager</Table.Th>
              <Table.Th>Rate (%)</Table.Th>
              <Table.Th w={40}>
                <VisuallyHidden>Remove</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {levels.map((level, i) => {
              const n = i + 1;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: a level is its position while being edited
                <Table.Tr key={i} data-testid="level-row" style={{ verticalAlign: "top" }}>
                  <Table.Td pt={14} style={{ whiteSpace: "nowrap" }}>
                    Level {n}
                  </Table.Td>
                  <Table.Td>
                    <Select
                      aria-label={`Level ${n} depth`}
                      data={DEPTHS}
                      value={level.depth || null}
                      onChange={(value) => set(i, "depth", value ?? "")}
                      allowDeselect={false}
                      error={errors[`override_levels[${i}].depth`]}
                    />
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`Level ${n} rate (%)`}
                      inputMode="decimal"
                      rightSection="%"
                      value={level.rate}
                      onChange={(e) => set(i, "rate", e.currentTarget.value)}
                      error={errors[`override_levels[${i}].rate`]}
                    />
                  </Table.Td>
                  <Table.Td>
                    {levels.length > 1 && (
                      <ActionIcon
                        variant="subtle"
                        color="red.8"
                        size="lg"
                        aria-label={`Remove level ${n}`}
                        onClick={() => onChange(levels.filter((_, j) => j !== i))}
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
      {errors.override_levels && (
        <Text size="sm" c="red.8" role="alert">
          {errors.override_levels}
        </Text>
      )}
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Button
          size="xs"
          variant="light"
          disabled={unused === undefined}
          onClick={() => unused && onChange([...levels, { depth: unused, rate: "" }])}
        >
          Add a level
        </Button>
        {words && (
          <Text size="sm" c="dimmed" data-testid="levels-in-words">
            {words}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
