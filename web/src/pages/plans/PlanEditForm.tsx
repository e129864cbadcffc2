import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import type { ReactNode } from "react";
import { type PlanForm, tierField } from "./editForm";
import { PLAN_STATUSES } from "./schemas";

const PERIODS = ["month", "quarter", "year"] as const;

interface Props {
  form: PlanForm;
  onChange: (form: PlanForm) => void;
  /** The API's 422 details by field (`quota`, `tiers[1].rate`, …). */
  errors: Record<string, string>;
  /** What the buttons under the form are (preview; reset). */
  actions: ReactNode;
}

/** The plan's editable terms. Rates and factors are decimals as the API takes them (0.1 = 10 %). */
export function PlanEditForm({ form, onChange, errors, actions }: Props) {
  const set = <K extends keyof PlanForm>(key: K, value: PlanForm[K]) => onChange({ ...form, [key]: value });
  const num = (key: "quota" | "base_rate" | "min_deal_amount" | "cap_per_period") => ({
    value: form[key],
    onChange: (v: number | string) => set(key, String(v)),
    error: errors[key],
  });
  const setTier = (i: number, column: "from_attainment" | "rate", value: string) =>
    set(
      "tiers",
      form.tiers.map((t, j) => (j === i ? { ...t, [column]: value } : t)),
    );
  const setMultiplier = (i: number, column: "type" | "factor", value: string) =>
    set(
      "multipliers",
      form.multipliers.map((m, j) => (j === i ? { ...m, [column]: value } : m)),
    );

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        <TextInput
          label="Name"
          value={form.name}
          onChange={(e) => set("name", e.currentTarget.value)}
          error={errors.name}
        />
        <Select
          label="Status"
          data={[...PLAN_STATUSES]}
          value={form.status}
          onChange={(v) => set("status", PLAN_STATUSES.find((s) => s === v) ?? form.status)}
          allowDeselect={false}
          error={errors.status}
        />
        <Select
          label="Period"
          data={[...PERIODS]}
          value={form.period}
          onChange={(v) => set("period", PERIODS.find((p) => p === v) ?? form.period)}
          allowDeselect={false}
          error={errors.period}
        />
        <TextInput
          label="Currency"
          value={form.currency}
          onChange={(e) => set("currency", e.currentTarget.value)}
          maxLength={3}
          error={errors.currency}
        />
      </SimpleGrid>
      <Textarea
        label="Description"
        value={form.description}
        onChange={(e) => set("description", e.currentTarget.value)}
        autosize
        minRows={1}
        error={errors.description}
      />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
        <NumberInput label="Quota per period" decimalScale={2} min={0} thousandSeparator="," {...num("quota")} />
        <NumberInput
          label="Base rate"
          description="Decimal: 0.1 = 10 %"
          decimalScale={6}
          min={0}
          {...num("base_rate")}
        />
        <NumberInput
          label="Minimum deal amount"
          decimalScale={2}
          min={0}
          thousandSeparator=","
          {...num("min_deal_amount")}
        />
        <NumberInput label="Cap per period" decimalScale={2} min={0} thousandSeparator="," {...num("cap_per_period")} />
        <TextInput
          type="date"
          label="Effective from"
          value={form.effective_from}
          onChange={(e) => set("effective_from", e.currentTarget.value)}
          error={errors.effective_from}
        />
        <TextInput
          type="date"
          label="Effective to"
          description="Empty: open-ended"
          value={form.effective_to}
          onChange={(e) => set("effective_to", e.currentTarget.value)}
          error={errors.effective_to}
        />
      </SimpleGrid>

      <Stack gap="xs">
        <Title order={4} size="h5">
          Tiers
        </Title>
        <Text size="xs" c="dimmed">
          Bands of quota attainment, ascending from 0 (1 = 100 % of quota); no tiers: the base rate applies.
        </Text>
        {errors.tiers && (
          <Text size="sm" c="red.8" role="alert">
            {errors.tiers}
          </Text>
        )}
        {form.tiers.map((tier, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a tier is its position while being edited
          <Group key={i} align="end" gap="sm" wrap="nowrap" data-testid="tier-row">
            <NumberInput
              label={`Tier ${i + 1} from attainment`}
              decimalScale={6}
              min={0}
              value={tier.from_attainment}
              onChange={(v) => setTier(i, "from_attainment", String(v))}
              error={errors[tierField(i, "from_attainment")]}
              style={{ flex: 1 }}
            />
            <NumberInput
              label={`Tier ${i + 1} rate`}
              decimalScale={6}
              min={0}
              value={tier.rate}
              onChange={(v) => setTier(i, "rate", String(v))}
              error={errors[tierField(i, "rate")]}
              style={{ flex: 1 }}
            />
            <ActionIcon
              variant="subtle"
              color="red.8"
              size="lg"
              mb={errors[tierField(i, "rate")] ? 22 : 4}
              aria-label={`Remove tier ${i + 1}`}
              onClick={() =>
                set(
                  "tiers",
                  form.tiers.filter((_, j) => j !== i),
                )
              }
            >
              ×
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button
            size="xs"
            variant="light"
            onClick={() => set("tiers", [...form.tiers, { from_attainment: "", rate: "" }])}
          >
            Add a tier
          </Button>
        </Group>
      </Stack>

      <Stack gap="xs">
        <Title order={4} size="h5">
          Deal type multipliers
        </Title>
        {errors.deal_type_multipliers && (
          <Text size="sm" c="red.8" role="alert">
            {errors.deal_type_multipliers}
          </Text>
        )}
        {form.multipliers.map((m, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a multiplier is its position while being edited
          <Group key={i} align="end" gap="sm" wrap="nowrap">
            <TextInput
              label={`Multiplier ${i + 1} deal type`}
              value={m.type}
              onChange={(e) => setMultiplier(i, "type", e.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <NumberInput
              label={`Multiplier ${i + 1} factor`}
              decimalScale={6}
              min={0}
              value={m.factor}
              onChange={(v) => setMultiplier(i, "factor", String(v))}
              error={errors[`deal_type_multipliers.${m.type}`]}
              style={{ flex: 1 }}
            />
            <ActionIcon
              variant="subtle"
              color="red.8"
              size="lg"
              mb={4}
              aria-label={`Remove multiplier ${i + 1}`}
              onClick={() =>
                set(
                  "multipliers",
                  form.multipliers.filter((_, j) => j !== i),
                )
              }
            >
              ×
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button
            size="xs"
            variant="light"
            onClick={() => set("multipliers", [...form.multipliers, { type: "", factor: "" }])}
          >
            Add a multiplier
          </Button>
        </Group>
      </Stack>
      {actions}
    </Stack>
  );
}
