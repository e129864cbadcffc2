import {
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import type { ReactNode } from "react";
import { LevelTable } from "./LevelTable";
import { MultiplierRows } from "./MultiplierRows";
import type { PlanKind, PlanValues, Rating } from "./plan-values";
import { PLAN_STATUSES } from "./schemas";
import { TierTable } from "./TierTable";

const PERIODS = [
  { value: "month", label: "Month" },
  { value: "quarter", label: "Quarter" },
  { value: "year", label: "Year" },
] as const;
const STATUS_OPTIONS = PLAN_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }));
const KINDS: { value: PlanKind; label: string }[] = [
  { value: "standard", label: "Standard" },
  { value: "override", label: "Override" },
];
const KIND_WORDS: Record<PlanKind, string> = {
  standard: "Standard: pays the people credited on a deal.",
  override: "Override: pays a manager on the credits of the people below them.",
};
const RATINGS: { value: Rating; label: string }[] = [
  { value: "tiers", label: "Tiers by quota attainment" },
  { value: "flat", label: "One rate on all credit" },
];

type Money = "quota" | "min_deal_amount" | "cap_per_period";

interface Props {
  values: PlanValues;
  onChange: (values: PlanValues) => void;
  /** What is wrong, in words, by parameter (`quota`, `tiers[1].rate`, `multipliers[0].factor`). */
  errors: Record<string, string>;
  /**
   * An existing plan's form: its status can change here (a new plan is a draft until published) and its
   * kind is fixed (a new plan's is picked here).
   */
  withStatus?: boolean;
  /** The buttons under the form. */
  actions: ReactNode;
  /** The sections' heading level: under a dialog's title (2) or a card's (3). */
  headings?: 3 | 4;
}

/** A plan's name and terms, rates and tier starts in percent (13 = 13 %). */
export function PlanFields({ values: v, onChange, errors, withStatus, actions, headings = 3 }: Props) {
  const set = <K extends keyof PlanValues>(key: K, value: PlanValues[K]) => onChange({ ...v, [key]: value });
  const money = (key: Money) => ({
    value: v[key],
    onChange: (value: number | string) => set(key, String(value)),
    error: errors[key],
    decimalScale: 2,
    min: 0,
    thousandSeparator: ",",
  });
  const inCurrency = `(${v.currency.trim().toUpperCase() || "currency"})`;
  const override = v.kind === "override";

  return (
    <Stack gap="lg">
      <Stack gap="sm">
        {withStatus ? (
          <Text size="sm" data-testid="plan-kind">
            {KIND_WORDS[v.kind]} A plan's kind is fixed once it is created.
          </Text>
        ) : (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="kind-label">
              Kind of plan
            </Text>
            <SegmentedControl
              aria-labelledby="kind-label"
              data={KINDS}
              value={v.kind}
              onChange={(k) => set("kind", k === "override" ? "override" : "standard")}
              w="fit-content"
              maw="100%"
            />
            <Text size="sm" c="dimmed">
              {KIND_WORDS[v.kind]}
            </Text>
          </Stack>
        )}
        <SimpleGrid cols={{ base: 1, sm: withStatus ? 2 : 1 }} spacing="sm">
          <TextInput
            label="Name"
            required
            data-autofocus
            value={v.name}
            onChange={(e) => set("name", e.currentTarget.value)}
            error={errors.name}
          />
          {withStatus && (
            <Select
              label="Status"
              data={STATUS_OPTIONS}
              value={v.status}
              onChange={(s) => set("status", PLAN_STATUSES.find((x) => x === s) ?? v.status)}
              allowDeselect={false}
              error={errors.status}
            />
          )}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label="Period"
            description={override ? "Override lines count per period." : "Quota, tiers and the cap count per period."}
            data={PERIODS}
            value={v.period}
            onChange={(p) => set("period", PERIODS.find((x) => x.value === p)?.value ?? v.period)}
            allowDeselect={false}
            error={errors.period}
          />
          <TextInput
            label="Currency"
            description="Three letters, such as USD or EUR."
            maxLength={3}
            value={v.currency}
            onChange={(e) => set("currency", e.currentTarget.value)}
            error={errors.currency}
          />
        </SimpleGrid>
        <Textarea
          label="Description"
          value={v.description}
          onChange={(e) => set("description", e.currentTarget.value)}
          autosize
          minRows={1}
          error={errors.description}
        />
      </Stack>

      <Stack gap="sm">
        <Title order={headings} size="h5">
          {override ? "Dates" : "Quota, limits and dates"}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          {!override && (
            <>
              <NumberInput
                label={`Quota per period ${inCurrency}`}
                description="Tiers measure attainment against it."
                {...money("quota")}
              />
              <NumberInput
                label={`Minimum deal amount ${inCurrency}`}
                description="Smaller deals earn nothing."
                {...money("min_deal_amount")}
              />
              <NumberInput
                label={`Cap per period ${inCurrency}`}
                description="Empty: no cap."
                {...money("cap_per_period")}
              />
            </>
          )}
          <TextInput
            type="date"
            label="Effective from"
            description="The first day deals count."
            required
            value={v.effective_from}
            onChange={(e) => set("effective_from", e.currentTarget.value)}
            error={errors.effective_from}
          />
          <TextInput
            type="date"
            label="Effective to"
            description="Empty: open-ended"
            value={v.effective_to}
            onChange={(e) => set("effective_to", e.currentTarget.value)}
            error={errors.effective_to}
          />
        </SimpleGrid>
      </Stack>

      {override ? (
        <Stack gap="sm">
          <Title order={headings} size="h5">
            How it pays
          </Title>
          <Text size="sm" c="dimmed">
            Rates in percent by depth below the manager (1 = their direct reports). Each level pays its rate on the
            credits of the people exactly that far below, never on the manager's own.
          </Text>
          <LevelTable levels={v.levels} onChange={(levels) => set("levels", levels)} errors={errors} />
        </Stack>
      ) : (
        <StandardRating values={v} set={set} errors={errors} headings={headings} />
      )}
      {actions}
    </Stack>
  );
}

/** A standard plan's rating (tiers or one rate) and its deal type multipliers. */
function StandardRating({
  values: v,
  set,
  errors,
  headings,
}: {
  values: PlanValues;
  set: <K extends keyof PlanValues>(key: K, value: PlanValues[K]) => void;
  errors: Record<string, string>;
  headings: 3 | 4;
}) {
  return (
    <>
      <Stack gap="sm">
        <Title order={headings} size="h5" id="rating-label">
          How it pays
        </Title>
        <SegmentedControl
          aria-labelledby="rating-label"
          data={RATINGS}
          value={v.rating}
          onChange={(r) => set("rating", r === "flat" ? "flat" : "tiers")}
          w="fit-content"
          maw="100%"
        />
        {v.rating === "tiers" ? (
          <>
            <Text size="sm" c="dimmed">
              Bands of quota attainment in percent (100% = quota met). Each band's rate pays the credit inside it.
            </Text>
            <TierTable tiers={v.tiers} onChange={(tiers) => set("tiers", tiers)} errors={errors} />
          </>
        ) : (
          <TextInput
            label="Rate on all credit (%)"
            inputMode="decimal"
            rightSection="%"
            maw={240}
            value={v.base_rate}
            onChange={(e) => set("base_rate", e.currentTarget.value)}
            error={errors.base_rate}
          />
        )}
      </Stack>

      <Stack gap="sm">
        <Title order={headings} size="h5">
          Deal type multipliers
        </Title>
        <MultiplierRows
          multipliers={v.multipliers}
          onChange={(multipliers) => set("multipliers", multipliers)}
          errors={errors}
        />
      </Stack>
    </>
  );
}
