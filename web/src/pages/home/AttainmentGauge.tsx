import { Text } from "@mantine/core";
import type { StatementPlan } from "../../data/statements/queries";
import { money, percent } from "../../lib/format";

const WIDTH = 320;
const BAR_Y = 22;
const BAR_H = 16;

/**
 * Attainment against quota as a bar with each tier's start marked and labelled. The scale runs a
 * quarter past the top band's start (or past the attainment when higher), so every marker shows.
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
  const scale = Math.max(1.25, ...starts.map((s) => s * 1.25), ratio * 1.05);
  const x = (r: number) => (Math.max(0, Math.min(r, scale)) / scale) * WIDTH;
  const summary =
    `Attainment ${percent(ratio)} of a ${money(plan.quota, plan.currency)} quota` +
    (starts.length > 0 ? `; bands start at ${starts.map((s) => percent(s)).join(", ")}` : "");
  return (
    <figure style={{ margin: 0 }}>
      <svg
        viewBox={`0 0 ${WIDTH} 60`}
        width="100%"
        style={{ maxWidth: 480, display: "block" }}
        role="img"
        aria-label={summary}
      >
        <rect x={0} y={BAR_Y} width={WIDTH} height={BAR_H} rx={3} fill="var(--mantine-color-gray-2)" />
        <rect x={0} y={BAR_Y} width={x(ratio)} height={BAR_H} rx={3} fill="var(--mantine-color-blue-6)" />
        {plan.tiers.map((tier) => (
          <g key={tier.from_attainment}>
            <line
              x1={x(tier.from_attainment)}
              x2={x(tier.from_attainment)}
              y1={BAR_Y - 6}
              y2={BAR_Y + BAR_H + 4}
              stroke="var(--mantine-color-dark-6)"
              strokeWidth={tier.from_attainment > 0 ? 2 : 0}
            />
            <text
              x={x(tier.from_attainment)}
              y={BAR_Y - 9}
              fontSize={10}
              textAnchor={tier.from_attainment > 0 ? "middle" : "start"}
              fill="var(--mantine-color-dark-6)"
            >
              {percent(tier.from_attainment)} · {percent(tier.rate)}
            </text>
          </g>
        ))}
        <text x={0} y={BAR_Y + BAR_H + 16} fontSize={10} fill="var(--mantine-color-dimmed)">
          Band start · rate
        </text>
      </svg>
      <Text size="sm" component="figcaption" data-testid="attainment">
        <strong>{percent(ratio)}</strong> of quota: {money(plan.attainment, plan.currency)} of{" "}
        {money(plan.quota, plan.currency)}
      </Text>
    </figure>
  );
}
