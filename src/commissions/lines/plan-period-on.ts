import type { PlanPeriod } from "../../enums.js";
import type { PlanSpan } from "./statement-plans-repository.js";

/**
 * The period kind of the plan a person's assignments put in force on `date` (a person has at most one
 * assignment in force on a date; a manager's standard plan decides over an override plan, then the
 * latest start); undefined without one.
 */
export function planPeriodOn(spans: readonly PlanSpan[], date: string): PlanPeriod | undefined {
  let found: PlanSpan | undefined;
  for (const s of spans) {
    if (s.effective_from > date || (s.effective_to !== null && s.effective_to < date)) continue;
    const before =
      found === undefined || (s.kind !== found.kind ? s.kind === "standard" : s.effective_from > found.effective_from);
    if (before) found = s;
  }
  return found?.period;
}
