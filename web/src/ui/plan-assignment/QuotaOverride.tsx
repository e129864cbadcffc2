import { NumberInput } from "@mantine/core";

/** A quota of the person's own for the assignment's span; empty: the plan's (`currency`: "" until a plan is picked). */
export function QuotaOverride(props: {
  currency: string;
  value: number | string;
  onChange: (value: number | string) => void;
  error: string | undefined;
}) {
  const { currency, ...field } = props;
  return (
    <NumberInput
      label="Quota override"
      description={currency ? `Empty: the plan's quota (${currency})` : "Empty: the plan's quota"}
      decimalScale={2}
      min={0}
      thousandSeparator=","
      {...field}
    />
  );
}
