import { Table } from "@mantine/core";
import type { Schemas } from "../../api/types";
import { money } from "../../lib/format";
import { Money } from "../Money";

type ClawbackExplanation = Schemas["ClawbackExplanation"];

const FACTOR_LABELS = {
  full: "Full amount",
  unserved_days: "Unserved days of the contract",
  refunded: "Share of the deal refunded",
} as const satisfies Record<ClawbackExplanation["factor"]["kind"], string>;

/** A clawback line (API.md §14): earned basis × percent × factor, less what was clawed back already. */
export function ClawbackSteps({
  explanation: e,
  amount,
  currency,
}: {
  explanation: ClawbackExplanation;
  amount: number;
  currency: string;
}) {
  const rows: [string, React.ReactNode][] = [
    ["Trigger", e.trigger.type === "cancel" ? "Cancellation" : `Refund ${e.trigger.refund_id ?? ""}`.trim()],
    ["Effective", `${e.effective_date} (${e.window.days} of ${e.window.window_days} days after close)`],
    ["Earned under the plan", <Money key="basis" amount={e.basis} currency={currency} />],
    ["Clawback percent", `${e.percent} %`],
    [FACTOR_LABELS[e.factor.kind], `${e.factor.numerator} / ${e.factor.denominator}`],
    ["Target", money(e.target, currency)],
    ["Clawed back before", money(e.already_clawed_back, currency)],
    ["This clawback", <strong key="amount">{money(amount, currency)}</strong>],
  ];
  return (
    <Table aria-label="Clawback" withRowBorders={false} verticalSpacing={4} fz="sm">
      <Table.Tbody>
        {rows.map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Th scope="row" fw={500} w="45%">
              {name}
            </Table.Th>
            <Table.Td ta="right">{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
