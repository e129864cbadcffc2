import { Anchor, Badge, Stack, Table, Text } from "@mantine/core";
import type { Schemas } from "../../api/types";
import { decimal, exactMoney, money, percent } from "../../lib/format";
import { ScrollTable } from "../ScrollTable";
import { PlanName } from "./PlanName";

type PlanExplanation = Schemas["PlanExplanation"];
type SpiffExplanation = Schemas["SpiffExplanation"];
type AdjustmentExplanation = Schemas["AdjustmentExplanation"];

/** A line as the deal page (a stored line) or What-if (a preview line) has it. */
export type ExplainedLine =
  | { kind: "plan"; amount: number; explanation: PlanExplanation }
  | { kind: "spiff"; amount: number; explanation: SpiffExplanation }
  | { kind: "adjustment"; amount: number; explanation: AdjustmentExplanation };

interface Props {
  line: ExplainedLine;
  currency: string;
  /** The id of the element showing another line of this page (`#line-…`), for a retroactive correction's link. */
  lineAnchor?: (lineId: string) => string | undefined;
}

/** A line's explanation as the calculation a person would write: every step with the API's numbers. */
export function ExplanationTable({ line, currency, lineAnchor }: Props) {
  return (
    <Stack gap="xs">
      <Text size="sm" data-testid="explanation-summary">
        {line.explanation.summary}
      </Text>
      {line.kind === "plan" && <PlanSteps explanation={line.explanation} amount={line.amount} currency={currency} />}
      {line.kind === "spiff" && <SpiffSteps explanation={line.explanation} amount={line.amount} currency={currency} />}
      {line.kind === "adjustment" && (
        <AdjustmentSteps explanation={line.explanation} currency={currency} lineAnchor={lineAnchor} />
      )}
    </Stack>
  );
}

function Steps({ label, rows }: { label: string; rows: [string, React.ReactNode][] }) {
  return (
    <Table aria-label={label} withRowBorders={false} verticalSpacing={4} fz="sm">
      <Table.Tbody>
        {rows.map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Th scope="row" fw={500} w="45%">
              {name}
            </Table.Th>
            <Table.Td ta="right" style={{ overflowWrap: "anywhere" }}>
              {value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function PlanSteps({
  explanation: e,
  amount,
  currency,
}: {
  explanation: PlanExplanation;
  amount: number;
  currency: string;
}) {
  const crossed = e.bands.length > 1;
  const steps: [string, React.ReactNode][] = [
    ["Multiplier", `× ${e.multiplier}`],
    ["Unrounded", exactMoney(e.unrounded, currency)],
  ];
  if (e.min_deal_amount !== undefined) steps.push(["Minimum deal amount", money(e.min_deal_amount, currency)]);
  if (e.cap) {
    steps.push(["Cap", money(e.cap.limit, currency)]);
    steps.push(["Used before the cap", money(e.cap.before, currency)]);
    steps.push(["Cap applied", e.cap.applied ? "yes" : "no"]);
  }
  steps.push(["Rounded to the cent", <strong key="amount">{money(amount, currency)}</strong>]);
  return (
    <Stack gap="xs">
      <Steps
        label="Plan terms"
        rows={[
          [
            "Plan",
            <span key="plan">
              <PlanName id={e.plan_id} /> v{e.plan_version}, {e.period}
            </span>,
          ],
          ["Quota", e.quota === null ? "none" : money(e.quota, currency)],
          ["Attainment before this deal", exactMoney(e.prior_attainment, currency)],
          ["This deal's credit", exactMoney(e.credit, currency)],
        ]}
      />
      {crossed && (
        <Badge color="grape.9" data-testid="tier-crossing">
          Crosses into {e.bands.length - 1} higher band{e.bands.length > 2 ? "s" : ""}
        </Badge>
      )}
      <ScrollTable minWidth={420} label="Bands of the calculation">
        <Table aria-label="Bands" striped fz="sm" data-testid="band-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>From</Table.Th>
              <Table.Th>To</Table.Th>
              <Table.Th ta="right">Rate</Table.Th>
              <Table.Th ta="right">Slice</Table.Th>
              <Table.Th ta="right">Commission</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {e.bands.map((band, i) => (
              <Table.Tr
                key={band.from}
                data-crossed={i > 0 || undefined}
                bg={i > 0 ? "var(--mantine-color-grape-light)" : undefined}
              >
                <Table.Td>{money(band.from, currency)}</Table.Td>
                <Table.Td>{band.to === null ? "and above" : money(band.to, currency)}</Table.Td>
                <Table.Td ta="right">{percent(band.rate, 4)}</Table.Td>
                <Table.Td ta="right">{exactMoney(band.amount, currency)}</Table.Td>
                <Table.Td ta="right" data-testid="band-commission" data-value={band.commission}>
                  {exactMoney(band.commission, currency)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      <Steps label="From bands to the line" rows={steps} />
    </Stack>
  );
}

function SpiffSteps({
  explanation: e,
  amount,
  currency,
}: {
  explanation: SpiffExplanation;
  amount: number;
  currency: string;
}) {
  const payout =
    e.payout.type === "flat"
      ? `${money(e.payout.amount, currency)} flat`
      : `${percent(e.payout.rate, 4)} of the credit`;
  return (
    <Steps
      label="SPIFF"
      rows={[
        ["SPIFF", e.spiff_name],
        ["Why it pays", e.criteria_met.length ? e.criteria_met.join("; ") : "every deal in its window"],
        ["Payout", payout],
        ["Credit", `${exactMoney(e.credit, currency)} (${decimal(e.percent)}% split)`],
        ["Period", e.period],
        ["Unrounded", exactMoney(e.unrounded, currency)],
        ["Amount", <strong key="amount">{money(amount, currency)}</strong>],
      ]}
    />
  );
}

function AdjustmentSteps({
  explanation: e,
  currency,
  lineAnchor,
}: {
  explanation: AdjustmentExplanation;
  currency: string;
  lineAnchor?: (lineId: string) => string | undefined;
}) {
  const rows: [string, React.ReactNode][] = [
    ["Reason", e.reason],
    ["By", e.author.name],
    ["Period", e.period],
  ];
  if (e.dispute) {
    rows.push(["Dispute", `${e.dispute.id}: ${e.dispute.outcome.replace("_", " ")}`]);
    rows.push(["Total before", exactMoney(e.dispute.previous_total, currency)]);
    rows.push(["Total accepted", exactMoney(e.dispute.accepted_total, currency)]);
  }
  const retro = e.retroactive;
  if (retro) {
    const anchor = lineAnchor?.(retro.original_line_id);
    rows.push([
      "Corrects",
      anchor ? (
        <Anchor key="corrects" href={`#${anchor}`}>
          {retro.original_line_id}
        </Anchor>
      ) : (
        retro.original_line_id
      ),
    ]);
    rows.push([
      "Plan versions",
      <span key="versions">
        <PlanName id={retro.plan_id} />: v{retro.from_version} → v{retro.to_version}
      </span>,
    ]);
    rows.push(["Amount before", exactMoney(retro.before.amount, currency)]);
    rows.push(["Amount after", exactMoney(retro.after.amount, currency)]);
  }
  rows.push(["Adjustment", <strong key="amount">{money(e.amount, currency)}</strong>]);
  return <Steps label="Adjustment" rows={rows} />;
}
