import { Select } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { type PeriodSummary, periodsQuery } from "../../data/statements/queries";
import { datesOf } from "../../lib/periods";

function labelOf(p: Pick<PeriodSummary, "period" | "current" | "lines">): string {
  const lines = p.lines === 0 ? "no lines" : p.lines === 1 ? "1 line" : `${p.lines} lines`;
  return `${p.period}${p.current ? " (current)" : ""} · ${lines}`;
}

/**
 * The periods a person can open: each one they have lines in and their plan's current one, newest
 * first (GET /users/{id}/periods). A period opened by its address that is neither is listed too, in its
 * place, so the picker always names the page's period.
 */
export function PeriodPicker({ userId, period, user }: { userId: string; period: string; user?: string }) {
  const periods = useQuery(periodsQuery(userId));
  const navigate = useNavigate();
  const listed = periods.data ?? [];
  const options = listed.map((p) => ({ value: p.period, label: labelOf(p) }));
  if (!listed.some((p) => p.period === period)) {
    const end = datesOf(period).to;
    const at = listed.findIndex((p) => p.to < end);
    const option = { value: period, label: labelOf({ period, current: false, lines: 0 }) };
    options.splice(at === -1 ? options.length : at, 0, option);
  }
  return (
    <Select
      label="Period"
      size="xs"
      w={210}
      data={options}
      value={period}
      allowDeselect={false}
      disabled={!periods.data}
      error={periods.error ? "The periods could not be listed" : undefined}
      data-testid="period-picker"
      onChange={(value) => {
        if (value && value !== period)
          void navigate({ to: "/statements/$period", params: { period: value }, search: { user } });
      }}
    />
  );
}
