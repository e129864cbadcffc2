// Recalculation as the rest of commissions and the feature's index see it: recalculate stored lines
// (inline or as a job), price an unsaved deal, reprice locked history, and the reads around them.
export { toPlanInput, unsavedCredits } from "./inputs.js";
export { type PlanOptions, planRecalc } from "./plan.js";
export { priceUnsavedDeal } from "./preview.js";
export { recalculateRatesChange } from "./rates-change.js";
export {
  bucketsOfDeals,
  countCredits,
  countPlanLines,
  currentExplanations,
  loadPlanContext,
  sharedEntryReads,
} from "./read.js";
export { lockForRecalc, recalculate, refreshTotals } from "./recalculate.js";
export { recalculateJobHandler } from "./recalculate-job.js";
export { recalculateReportingChange, reportingTarget } from "./reporting-change.js";
export { repriceLockedLines } from "./reprice.js";
export { type GroupedWork, type GroupMember, inGroupedTurnFor } from "./shared-turns.js";
export { inTurnFor } from "./turns.js";
export type {
  DateRange,
  DesiredLine,
  EntryReader,
  ExistingLine,
  LockedRepricing,
  RecalcTarget,
} from "./types.js";
