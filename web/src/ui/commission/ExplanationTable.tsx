import { Anchor, Badge, Stack, Table, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { Schemas } from "../../api/types";
import { everyoneQuery, namesOf } from "../../data/users/queries";
import { money, percent, sharePercent } from "../../lib/format";
import { whyItPays } from "../../lib/spiff-reasons";
import { DISPUTE_OUTCOME_LABELS } from "../labels";
import { Money } from "../Money";
import { ScrollTable } from "../ScrollTable";
import { ClawbackSteps } from "./ClawbackSteps";
import { Conversion } from "./Conversion";
import { PlanName } from "./PlanName";

type PlanExplanation = Schemas["PlanExplanation"];
type SpiffExplanation = Schemas["SpiffExplanation"];
type AdjustmentExplanation = Schemas["AdjustmentExplanation"];

/** A line as the deal page (a stored line) or What-if (a preview line) has it. */
export type ExplainedLine =
  | { kind: "plan"; amount: number; explanation: PlanExplanation }
  | { kind: "spiff"; amount: number; explanation: SpiffExplanation }
  | { kind: "override"; amount: number; explanation: Schemas["OverrideExplanation"] }
  | { kind: "adjustment"; amount: number; explanation: AdjustmentExplanation }
  | { kind: "clawback"; amount: number; explanation: Schemas["ClawbackExplanation"] };

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
      {fxOf(line) && <Conversion fx={fxOf(line)!} />}
      {line.kind === "plan" && <PlanSteps explanation={line.explanation} amount={line.amount} currency={currency} />}
      {line.kind === "spiff" && <SpiffSteps explanation={line.explanation} amount={line.amount} currency={currency} />}
      {line.kind === "override" && (
        <OverrideSteps explanation={line.explanation} amount={line.amount} currency={currency} />
      )}
      {line.kind === "adjustment" && (
        <AdjustmentSteps explanation={line.explanation} currency={currency} lineAnchor={lineAnchor} />
      )}
      {line.kind === "clawback" && (
        <ClawbackSteps explanation={line.explanation} amount={line.amount} currency={currency} />
      )}
    </Stack>
  );
}

/** A plan, SPIFF or override line's conversion; undefined when it did not convert. */
function fxOf(line: ExplainedLine): Schemas["FxExplanation"] | undefined {
  if (line.kind === "plan" || line.kind === "spiff" || line.kind === "override")
    return line.explanation.fx ?? undefined;
  return undefined;
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
    ["Unrounded", <Money key="unrounded" amount={e.unrounded} currency={currency} />],
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
          [
            "Attainment before this deal",
            <Money key="prior_attainment" amount={e.prior_attainment} currency={currency} />,
          ],
          ["This deal's credit", <Money key="credit" amount={e.credit} currency={currency} />],
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
                <Table.Td ta="right">
                  <Money amount={band.amount} currency={currency} />
                </Table.Td>
                <Table.Td ta="right" data-testid="band-commission" data-value={band.commission}>
                  <Money amount={band.commission} currency={currency} />
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
  // A SPIFF for listed people names the credited person: by name when the viewer sees them.
  const names = useQuery({ ...everyoneQuery(), select: namesOf });
  const nameOf = (id: string) => names.data?.get(id) ?? id;
  const payout =
    e.payout.type === "flat"
      ? `${money(e.payout.amount, currency)} flat`
      : `${percent(e.payout.rate, 4)} of the credit`;
  return (
    <Steps
      label="SPIFF"
      rows={[
        ["SPIFF", e.spiff_name],
        ["Why it pays", whyItPays(e.criteria_met, currency, nameOf)],
        ["Payout", payout],
        [
          "Credit",
          <span key="credit">
            <Money amount={e.credit} currency={currency} /> ({sharePercent(e.percent)} split)
          </span>,
        ],
        ["Period", e.period],
        ["Unrounded", <Money key="unrounded" amount={e.unrounded} currency={currency} />],
        ["Amount", <strong key="amount">{money(amount, currency)}</strong>],
      ]}
    />
  );
}

/** A manager's override: per depth below them, who was credited, the credit counted once, times the rate. */
function OverrideSteps({
  explanation: e,
  amount,
  currency,
}: {
  explanation: Schemas["OverrideExplanation"];
  amount: number;
  currency: string;
}) {
  const names = useQuery({ ...everyoneQuery(), select: namesOf });
  const nameOf = (id: string) => names.data?.get(id) ?? id;
  return (
    <Stack gap="xs">
      <Steps
        label="Override plan"
        rows={[
          [
            "Plan",
            <span key="plan">
              <PlanName id={e.plan_id} /> v{e.plan_version}, {e.period}
            </span>,
          ],
        ]}
      />
      <ScrollTable minWidth={420} label="Levels of the override">
        <Table aria-label="Override levels" striped fz="sm" data-testid="override-levels">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Depth</Table.Th>
              <Table.Th>Credited below</Table.Th>
              <Table.Th ta="right">Credit</Table.Th>
              <Table.Th ta="right">Rate</Table.Th>
              <Table.Th ta="right">Commission</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {e.levels.map((level) => (
              <Table.Tr key={level.depth}>
                <Table.Td>{level.depth}</Table.Td>
                <Table.Td>
                  {level.users.length === 0
                    ? "nobody"
                    : level.users.map((u) => `${nameOf(u.user_id)} ${money(u.credit, currency)}`).join(", ")}
                </Table.Td>
                <Table.Td ta="right">
                  <Money amount={level.credit} currency={currency} />
                </Table.Td>
                <Table.Td ta="right">{percent(level.rate, 4)}</Table.Td>
                <Table.Td ta="right" data-testid="override-commission" data-value={level.commission}>
                  <Money amount={level.commission} currency={currency} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      <Steps
        label="From levels to the line"
        rows={[
          ["Unrounded", <Money key="unrounded" amount={e.unrounded} currency={currency} />],
          ["Rounded to the cent", <strong key="amount">{money(amount, currency)}</strong>],
        ]}
      />
    </Stack>
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
    rows.push([
      "Dispute",
      `${e.dispute.id}: ${(DISPUTE_OUTCOME_LABELS[e.dispute.outcome as keyof typeof DISPUTE_OUTCOME_LABELS] ?? e.dispute.outcome).toLowerCase()}`,
    ]);
    rows.push(["Total before", <Money key="previous_total" amount={e.dispute.previous_total} currency={currency} />]);
    rows.push(["Total accepted", <Money key="accepted_total" amount={e.dispute.accepted_total} currency={currency} />]);
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
    rows.push(["Amount before", <Money key="before" amount={retro.before.amount} currency={currency} />]);
    rows.push(["Amount after", <Money key="after" amount={retro.after.amount} currency={currency} />]);
  }
  rows.push(["Adjustment", <strong key="amount">{money(e.amount, currency)}</strong>]);
  return <Steps label="Adjustment" rows={rows} />;
}
