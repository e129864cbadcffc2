import { Text } from "@mantine/core";
import type { Schemas } from "../../api/types";
import { money } from "../../lib/format";

/**
 * A converted line's conversion in both currencies (API.md §15): "€1,007.00 at 25/23 (USD rates of
 * 2026-03-09) = $1,094.57 credit". The rate is the API's exact fraction; the credit is rounded for display
 * only (the line was computed from the exact value, which the tooltip of each figure below keeps).
 */
export function Conversion({ fx }: { fx: Schemas["FxExplanation"] }) {
  return (
    <Text size="sm" data-testid="fx-conversion" data-from={fx.from} data-to={fx.to} data-rate={fx.rate}>
      {money(fx.credit_in_deal_currency, fx.from)} at {fx.rate} ({fx.base} rates of {fx.rate_date}) ={" "}
      <strong>{money(fx.credit, fx.to)}</strong> credit
    </Text>
  );
}
