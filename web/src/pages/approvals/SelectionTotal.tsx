import { Text } from "@mantine/core";
import type { Deal } from "../../data/deals/queries";
import { money } from "../../lib/format";
import { sumMoney } from "../../lib/money";

/** The selected deals' total commission, exactly (lib/money.ts), one sum per currency. */
export function SelectionTotal({ deals }: { deals: Deal[] }) {
  const byCurrency = new Map<string, number[]>();
  for (const d of deals) byCurrency.set(d.currency, [...(byCurrency.get(d.currency) ?? []), d.total_commission]);
  const totals = [...byCurrency.entries()].map(([currency, amounts]) => money(sumMoney(amounts), currency));
  return (
    <Text size="sm" aria-live="polite" data-testid="selection-total">
      {deals.length} selected · commission {totals.length > 0 ? totals.join(" + ") : money(0)}
    </Text>
  );
}
