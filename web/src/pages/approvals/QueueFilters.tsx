import { MultiSelect, Select, SimpleGrid, TextInput } from "@mantine/core";
import { DEAL_TYPES, type DealType } from "../../data/deals/queries";
import { currentPeriodLabel, lastPeriods } from "../../lib/periods";
import { DEAL_TYPE_LABELS } from "../../ui/labels";
import type { QueueFilters as Filters } from "./queue";

const PERIODS = [
  ...lastPeriods(currentPeriodLabel("quarter"), 6).reverse(),
  ...lastPeriods(currentPeriodLabel("year"), 2).reverse(),
];

const typeLabel = (type: DealType) => DEAL_TYPE_LABELS[type];

/** The queue's filters; a field the API refused shows the API's message (`errors`, by query parameter). */
export function QueueFilters(props: {
  filters: Filters;
  onChange: (filters: Filters) => void;
  owners: [string, string][];
  plans: { id: string; name: string }[];
  errors: Record<string, string>;
}) {
  const { filters, onChange, owners, plans, errors } = props;
  const set = <K extends keyof Filters>(key: K, value: Filters[K]) => onChange({ ...filters, [key]: value });
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 6 }} spacing="sm" data-testid="queue-filters">
      <Select
        label="Owner"
        placeholder="Anyone"
        data={owners.map(([value, label]) => ({ value, label }))}
        value={filters.owner_id}
        onChange={(value) => set("owner_id", value)}
        searchable
        clearable
        error={errors.owner_id}
      />
      <Select
        label="Close period"
        placeholder="Any"
        data={PERIODS}
        value={filters.period}
        onChange={(value) => set("period", value)}
        clearable
        error={errors.close_date_from ?? errors.close_date_to}
      />
      <TextInput
        label="ARR from"
        inputMode="decimal"
        placeholder="0"
        value={filters.arr_amount_min}
        onChange={(e) => set("arr_amount_min", e.currentTarget.value)}
        error={errors.arr_amount_min}
      />
      <TextInput
        label="ARR to"
        inputMode="decimal"
        placeholder="Any"
        value={filters.arr_amount_max}
        onChange={(e) => set("arr_amount_max", e.currentTarget.value)}
        error={errors.arr_amount_max}
      />
      <MultiSelect
        label="Deal type"
        placeholder={filters.deal_type.length === 0 ? "Any" : undefined}
        data={DEAL_TYPES.map((value) => ({ value, label: typeLabel(value) }))}
        value={filters.deal_type}
        onChange={(value) => set("deal_type", value as DealType[])}
        clearable
        error={errors.deal_type}
      />
      <Select
        label="Plan"
        placeholder="Any"
        data={plans.map((p) => ({ value: p.id, label: p.name }))}
        value={filters.plan_id}
        onChange={(value) => set("plan_id", value)}
        searchable
        clearable
        error={errors.plan_id}
      />
    </SimpleGrid>
  );
}
