// The commissions feature as other folders see it: its routes and job, the read services, recalculation,
// adjustments, and the engine's decimal and period helpers.
export {
  addAdjustment,
  type DisputeSource,
  defaultAdjustmentPeriod,
  disputeAdjustmentPeriod,
  disputeReason,
} from "./adjustments.js";
export { Dec, plain } from "./calculate/decimal.js";
export { periodRange, quarterOf } from "./calculate/periods.js";
export { type CsvLine, csvText } from "./csv.js";
export {
  adjustmentLineIds,
  findLines,
  type LineTotals,
  linesOfDeal,
  lineTotalsOf,
  lockDealLines,
  markDealLinesPaid,
  readLineTotals,
  voidDealLines,
} from "./deal-lines.js";
export { PLAN_LINE_IMPACT, SPIFF_LINE_IMPACT } from "./explanation.js";
export {
  impactSize,
  type LineChange,
  money,
  noImpact,
  type PlanChangeImpact,
  planChangeImpact,
} from "./impact.js";
export { priceUnsavedDeal } from "./preview.js";
export { unsavedCredits } from "./recalc/load.js";
export { toPlanInput } from "./recalc/load-terms.js";
export { currentExplanations } from "./recalc/locked.js";
export { bucketsOfDeals, type DateRange, lockForRecalc, recalculate, refreshTotals } from "./recalculate.js";
export { recalculateJobHandler } from "./recalculate-job.js";
export { correctLockedHistory, type RetroactiveResult } from "./retroactive.js";
export { adjustmentRoutes } from "./routes/adjustments.js";
export { commissionRoutes } from "./routes.js";
export {
  Commission,
  CreateAdjustmentBody,
  DealExplanation,
  dealExplanation,
  ListCommissionsQuery,
  NoContent,
  PlanTier,
  Preview,
  RecalculationJobId,
  Statement,
  StatementQuery,
} from "./schema.js";
export { getCommission, listCommissions } from "./service.js";
export { getStatement } from "./statement.js";
