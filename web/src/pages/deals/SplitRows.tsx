import { ActionIcon, Button, Group, Input, NumberInput, Select, Stack, Text } from "@mantine/core";
import type { SplitValues } from "./deal-problems";

interface Props {
  splits: SplitValues[];
  ownerId: string | null;
  people: { value: string; label: string }[];
  nameOf: (id: string) => string;
  /** The problems by parameter (`splits`, `splits[1].percent`), in words. */
  errors: Record<string, string>;
  /** What the shares add up to, said when it is not 100 (shown as they are typed, not only on save). */
  sumProblem: string | undefined;
  onChange: (splits: SplitValues[]) => void;
}

/** The most people one deal credits (the API's limit). */
const MOST = 50;

/**
 * Who is credited and with what share. No rows: the owner at 100 % (following the owner); "Split the
 * credit" starts from the owner's row, so the shares are typed, never guessed.
 */
export function SplitRows({ splits, ownerId, people, nameOf, errors, sumProblem, onChange }: Props) {
  const update = (index: number, change: Partial<SplitValues>) =>
    onChange(splits.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const add = () =>
    onChange([
      ...(splits.length === 0 ? [{ user_id: ownerId, percent: 100 }] : splits),
      { user_id: null, percent: "" },
    ]);
  const problem = errors.splits ?? sumProblem;

  return (
    <Stack gap="xs" role="group" aria-labelledby="deal-credit-label">
      <Input.Label labelElement="div" id="deal-credit-label">
        Credit
      </Input.Label>
      {splits.length === 0 && (
        <Text size="sm" c="gray.7" data-testid="owner-alone">
          {ownerId ? `${nameOf(ownerId)}, the owner, at 100 %.` : "The owner, at 100 %."}
        </Text>
      )}
      {splits.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a row is its position (the API names splits[i])
        <Group key={i} align="flex-start" wrap="nowrap" gap="xs" data-testid="split-row">
          <Select
            label={`Person ${i + 1}`}
            placeholder="Pick a person"
            data={people}
            value={row.user_id}
            onChange={(value) => update(i, { user_id: value })}
            searchable
            flex={1}
            error={errors[`splits[${i}].user_id`]}
            comboboxProps={{ withinPortal: true }}
          />
          <NumberInput
            label={`Share ${i + 1}`}
            value={row.percent}
            onChange={(value) => update(i, { percent: value })}
            min={0}
            max={100}
            clampBehavior="none"
            decimalScale={4}
            suffix=" %"
            hideControls
            w={110}
            error={errors[`splits[${i}].percent`]}
          />
          <ActionIcon
            variant="subtle"
            color="red.8"
            mt={28}
            size="lg"
            aria-label={`Remove person ${i + 1}`}
            onClick={() => onChange(splits.filter((_, j) => j !== i))}
          >
            ×
          </ActionIcon>
        </Group>
      ))}
      {problem && (
        <Text size="sm" c="red.8" role="alert" data-testid="splits-problem">
          {problem}
        </Text>
      )}
      <Group gap="xs">
        <Button variant="light" size="xs" onClick={add} disabled={splits.length >= MOST}>
          {splits.length === 0 ? "Split the credit" : "Add a person"}
        </Button>
        {splits.length > 0 && (
          <Button variant="subtle" size="xs" onClick={() => onChange([])}>
            Credit the owner alone
          </Button>
        )}
      </Group>
    </Stack>
  );
}
