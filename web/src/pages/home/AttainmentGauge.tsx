import { Text } from "@mantine/core";
import type { StatementPlan } from "../../data/statements/queries";
import { money, percent } from "../../lib/format";
import { gaugeScale, placeLabels } from "./gauge-layout";

const WIDTH = 320;
const BAR_H = 16;
const FONT = 10;
/** From one row of tier labels to the next, when close tiers need two. */
const ROW_H = 12;

/**
 * Attainment against quota as a bar with each tier's start marked and labelled. The scale runs a
 * quarter past the top band's start (or past the attainment when higher, within limits: gaugeScale);
 * labels that would touch go to a row above (placeLabels), so none overlaps another.
 */
export function AttainmentGauge({ plan }: { plan: StatementPlan }) {
  const ratio = plan.attainment_ratio;
  if (ratio === null || plan.quota === null) {
    return (
      <Text size="sm" data-testid="attainment">
        {money(plan.attainment, plan.currency)} credited (no quota)
      </Text>
    );
  }
  const starts = plan.tiers.map((t) => t.from_attainment).filter((from) => from > 0);
  const scale = gaugeScale(ratio, starts);
  const x = (r: number) => (Math.max(0, Math.min(r, scale)) / scale) * WIDTH;
  const labels = placeLabels(
    plan.tiers.map((tier) => ({
      x: x(tier.from_attainment),
      text: `${percent(tier.from_attainment)} · ${percent(tier.rate)}`,
    })),
    WIDTH,
    FONT,
  );
  // Without tiers (one base rate): no labels, no legend, only the bar.
  const rows = Math.max(0, ...labels.map((l) => l.row + 1));
  const barY = rows === 0 ? 4 : 22 + (rows - 1) * ROW_H;
  const height = barY + BAR_H + (rows === 0 ? 4 : 22);
  const baseline = (row: number) => barY - 9 - row * ROW_H;
  const summary =
    `Attainment ${percent(ratio)} of a ${money(plan.quota, plan.currency)} quota` +
    (starts.length > 0 ? `; bands start at ${starts.map((s) => percent(s)).join(", ")}` : "");
  return (
    <figure style={{ margin: 0 }}>
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        style={{ maxWidth: 480, display: "block" }}
        role="img"
        aria-label={summary}
      >
        <rect x={0} y={barY} width={WIDTH} height={BAR_H} rx={3} fill="var(--mantine-color-gray-2)" />
        <rect x={0} y={barY} width={x(ratio)} height={BAR_H} rx={3} fill="var(--mantine-color-blue-6)" />
        {ratio > scale && (
          // Past the end of the scale: a break in the bar.
          <path
            d={`M${WIDTH - 14} ${barY + BAR_H} l6 -${BAR_H} M${WIDTH - 9} ${barY + BAR_H} l6 -${BAR_H}`}
            stroke="white"
            strokeWidth={2}
          />
        )}
        {labels.map((label) => (
          <g key={label.text} data-testid="tier-label">
            <line
              x1={label.x}
              x2={label.x}
              y1={barY - 6}
              y2={barY + BAR_H + 4}
              stroke="var(--mantine-color-dark-6)"
              strokeWidth={label.x > 0 ? 2 : 0}
            />
            <text x={label.left} y={baseline(label.row)} fontSize={FONT} fill="var(--mantine-color-dark-6)">
              {label.text}
            </text>
          </g>
        ))}
        {rows > 0 && (
          <text x={0} y={barY + BAR_H + 16} fontSize={FONT} fill="var(--mantine-color-dimmed)">
            Band start · rate
          </text>
        )}
      </svg>
      <Text size="sm" component="figcaption" data-testid="attainment">
        <strong>{percent(ratio)}</strong> of quota: {money(plan.attainment, plan.currency)} of{" "}
        {money(plan.quota, plan.currency)}
      </Text>
    </figure>
  );
}
