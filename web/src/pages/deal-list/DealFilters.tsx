import { Button, Group, MultiSelect, Select, TextInput } from "@mantine/core";
import type { FormEvent } from "react";
import { useDraft } from "../../lib/draft";
import { currentPeriodLabel, lastPeriods } from "../../lib/periods";
import { DEAL_STATUS_LABELS } from "../../ui/labels";
import { DEAL_STATUSES, type DealListSearch } from "./schemas";

const PERIODS = [
  { group: "Quarters", items: lastPeriods(currentPeriodLabel("quarter"), 6).reverse() },
  { group: "Months", items: lastPeriods(currentPeriodLabel("month"), 12).reverse() },
  { group: "Years", items: lastPeriods(currentPeriodLabel("year"), 3).reverse() },
];
const STATUS_OPTIONS = DEAL_STATUSES.map((value) => ({ value, label: DEAL_STATUS_LABELS[value] }));

/** Status, period and owner apply at once; the name search on Search (Enter). */
export function DealFilters(props: {
  search: DealListSearch;
  onChange: (next: DealListSearch) => void;
  /** The people to pick an owner from: only for those who see others' deals. */
  owners?: [id: string, name: string][];
}) {
  const { search, onChange, owners } = props;
  const [q, setQ] = useDraft(search.q ?? "");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ ...search, q: q.trim() || undefined });
  };
  return (
    <form onSubmit={submit} aria-label="Filter deals" data-testid="deal-filters">
      <Group align="end" gap="sm">
        <TextInput
          label="Deal name"
          type="search"
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          placeholder="Part of a name"
          w={{ base: "100%", xs: 220 }}
        />
        <Button type="submit" variant="light">
          Search
        </Button>
        <MultiSelect
          label="Status"
          placeholder={search.status?.length ? undefined : "Any"}
          data={STATUS_OPTIONS}
          value={search.status ?? []}
          onChange={(values) => {
            const status = DEAL_STATUSES.filter((s) => values.includes(s));
            onChange({ ...search, status: status.length > 0 ? status : undefined });
          }}
          clearable
          w={{ base: "100%", xs: 240 }}
        />
        <Select
          label="Close period"
          placeholder="Any"
          data={PERIODS}
          value={search.period ?? null}
          onChange={(value) => onChange({ ...search, period: value ?? undefined })}
          clearable
          w={{ base: "100%", xs: 150 }}
        />
        {owners && (
          <Select
            label="Owner"
            placeholder="Anyone"
            data={owners.map(([value, label]) => ({ value, label }))}
            value={search.owner_id ?? null}
            onChange={(value) => onChange({ ...search, owner_id: value ?? undefined })}
            searchable
            clearable
            w={{ base: "100%", xs: 220 }}
          />
        )}
      </Group>
    </form>
  );
}
