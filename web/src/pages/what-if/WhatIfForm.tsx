import { ActionIcon, Button, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from "@mantine/core";
import { type FormEvent, useState } from "react";
import type { Schemas } from "../../api/types";
import type { PreviewBody } from "../../data/commissions/mutations";
import { DEAL_TYPES, type DealType } from "../../data/deals/queries";
import { useFields } from "../../lib/fields";
import { today } from "../../lib/periods";
import { DEAL_TYPE_LABELS } from "../../ui/labels";

const TYPE_OPTIONS = DEAL_TYPES.map((value) => ({ value, label: DEAL_TYPE_LABELS[value] }));

interface SplitRow {
  key: number;
  userId: string | null;
  percent: number | string;
}

interface Props {
  me: Schemas["User"];
  /** The people the person sees (id → name), to credit on a split. */
  people: Map<string, string> | undefined;
  /** The API's validation errors by field (`arr_amount`, `splits[1].percent`). */
  errors: Record<string, string>;
  pending: boolean;
  onSubmit: (body: PreviewBody) => void;
}

/** Amount, type, close date and splits (the person at 100 % unless split rows are added). */
export function WhatIfForm({ me, people, errors, pending, onSubmit }: Props) {
  const form = useFields(
    { arr_amount: "" as number | string, deal_type: "new_business" as DealType, close_date: today(), currency: "USD" },
    errors,
  );
  const { arr_amount, deal_type, close_date, currency } = form.values;
  const [splits, setSplits] = useState<SplitRow[]>([]);
  const [nextKey, setNextKey] = useState(1);
  const options = [...(people ?? new Map([[me.id, me.name]]))].map(([value, label]) => ({ value, label }));

  const addSplit = () => {
    const rows = splits.length === 0 ? [{ key: 0, userId: me.id, percent: 100 }] : splits;
    setSplits([...rows, { key: nextKey, userId: null, percent: "" }]);
    setNextKey(nextKey + 1);
  };
  const update = (key: number, change: Partial<SplitRow>) =>
    setSplits(splits.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({
      opportunity_name: "What-if deal",
      arr_amount: arr_amount === "" ? Number.NaN : Number(arr_amount),
      deal_type,
      close_date,
      currency: currency.trim().toUpperCase(),
      owner_id: me.id,
      ...(splits.length > 0 && {
        splits: splits.map((row) => ({
          user_id: row.userId ?? "",
          percent: row.percent === "" ? 0 : Number(row.percent),
        })),
      }),
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label="ARR amount"
            decimalScale={2}
            thousandSeparator=","
            min={0}
            required
            {...form.value("arr_amount")}
          />
          <Select
            label="Deal type"
            data={TYPE_OPTIONS}
            allowDeselect={false}
            {...form.value("deal_type")}
            onChange={(value) => form.set("deal_type", DEAL_TYPES.find((type) => type === value) ?? "new_business")}
          />
          <TextInput label="Close date" type="date" required {...form.text("close_date")} />
          <TextInput label="Currency" maxLength={3} {...form.text("currency")} />
        </SimpleGrid>

        <Stack gap="xs">
          <Text size="sm" fw={500}>
            Splits
          </Text>
          {splits.length === 0 && (
            <Text size="sm" c="gray.7">
              You, at 100 %.
            </Text>
          )}
          {splits.map((row, i) => (
            <Group key={row.key} align="flex-start" wrap="nowrap" data-testid="split-row">
              <Select
                label={`Split ${i + 1}: person`}
                data={options}
                value={row.userId}
                onChange={(value) => update(row.key, { userId: value })}
                searchable
                flex={1}
                error={errors[`splits[${i}].user_id`]}
              />
              <NumberInput
                label="Percent"
                value={row.percent}
                onChange={(value) => update(row.key, { percent: value })}
                min={0}
                max={100}
                decimalScale={2}
                w={110}
                error={errors[`splits[${i}].percent`]}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mt={28}
                aria-label={`Remove split ${i + 1}`}
                onClick={() => setSplits(splits.filter((r) => r.key !== row.key))}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          {errors.splits && (
            <Text size="sm" c="red" role="alert">
              {errors.splits}
            </Text>
          )}
          <Button variant="light" size="xs" onClick={addSplit} w="fit-content">
            Add a split
          </Button>
        </Stack>

        <Group justify="flex-end">
          <Button type="submit" loading={pending}>
            Preview commission
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
