import { Text } from "@mantine/core";
import { money } from "../../lib/format";

export interface PeriodEarnings {
  period: string;
  total: number;
}

const BAR_W = 64;
const GAP = 20;
const HEIGHT = 120;

/** Earnings by period as bars, each labelled with its amount (the numbers are the data; bars only show size). */
export function EarningsChart({ periods, currency }: { periods: PeriodEarnings[]; currency: string }) {
  const top = Math.max(1, ...periods.map((p) => Math.abs(p.total)));
  const width = periods.length * (BAR_W + GAP);
  return (
    <figure style={{ margin: 0 }}>
      <svg
        viewBox={`0 0 ${width} ${HEIGHT + 24}`}
        width="100%"
        style={{ maxWidth: 420, display: "block" }}
        role="img"
        aria-label={`Earnings by period: ${periods.map((p) => `${p.period} ${money(p.total, currency)}`).join(", ")}`}
      >
        {periods.map((p, i) => {
          const h = (Math.max(0, p.total) / top) * (HEIGHT - 16);
          const left = i * (BAR_W + GAP) + GAP / 2;
          return (
            <g key={p.period}>
              <rect x={left} y={HEIGHT - h} width={BAR_W} height={h} rx={2} fill="var(--mantine-color-teal-6)" />
              <text x={left + BAR_W / 2} y={HEIGHT - h - 4} fontSize={10} textAnchor="middle">
                {money(p.total, currency)}
              </text>
              <text x={left + BAR_W / 2} y={HEIGHT + 14} fontSize={11} textAnchor="middle">
                {p.period}
              </text>
            </g>
          );
        })}
      </svg>
      <Text component="figcaption" size="xs" c="dimmed" mt={4}>
        {periods.map((p, i) => (
          <span key={p.period} data-testid={`period-earned-${p.period}`}>
            {i > 0 && " · "}
            {p.period}: {money(p.total, currency)}
          </span>
        ))}
      </Text>
    </figure>
  );
}
