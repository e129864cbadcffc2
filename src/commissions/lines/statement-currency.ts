import { periodRange } from "../engine/index.js";
import type { PlanSpan } from "./statement-plans-repository.js";

/*
 * API.md §15: a statement's totals cover one currency. By default the currency of the person's plan in
 * force in the period (an assignment overlapping it; a standard plan before an override plan, then the
 * latest start), else the currency most of the period's lines are in (ties by code), else USD.
 */

export const FALLBACK_CURRENCY = "USD";

export function statementCurrency(
  spans: readonly PlanSpan[],
  period: string,
  lineCounts: ReadonlyMap<string, number>,
): string {
  const { from, to } = periodRange(period);
  const inForce = spans
    .filter((s) => s.effective_from <= to && (s.effective_to === null || s.effective_to >= from))
    .sort((a, b) =>
      a.kind !== b.kind ? (a.kind === "standard" ? -1 : 1) : a.effective_from < b.effective_from ? 1 : -1,
    );
  if (inForce[0]) return inForce[0].currency;
  const [most] = [...lineCounts].sort(([a, n], [b, m]) => m - n || (a < b ? -1 : 1));
  return most?.[0] ?? FALLBACK_CURRENCY;
}
