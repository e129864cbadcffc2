import { Button, Code, Group, Text } from "@mantine/core";
import type { ExchangeRateSet } from "../../data/exchange-rates/queries";
import type { Column } from "../../ui/DataTable";

/** Date, base and each code's rate exactly as the API answers it (never reformatted: a rate is exact). */
export function rateColumns(onDelete: (set: ExchangeRateSet) => void): Column<ExchangeRateSet>[] {
  return [
    { header: "Date", rowHeader: true, props: () => ({ "data-field": "date" }), cell: (set) => set.date },
    { header: "Base", props: () => ({ "data-field": "base" }), cell: (set) => set.base },
    {
      header: "Rates (1 base =)",
      cell: (set) => (
        <Group gap="xs" data-field="rates">
          {Object.entries(set.rates).map(([code, rate]) => (
            <Text key={code} size="sm" data-code={code} data-rate={rate}>
              {code} <Code>{rate}</Code>
            </Text>
          ))}
        </Group>
      ),
    },
    {
      header: "Actions",
      cell: (set) => (
        <Button
          size="xs"
          variant="default"
          color="red"
          onClick={() => onDelete(set)}
          aria-label={`Delete ${set.base} rates of ${set.date}`}
        >
          Delete
        </Button>
      ),
    },
  ];
}
