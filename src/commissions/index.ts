// The commissions feature as other folders see it. Inside, four sub-surfaces, each with its index.ts:
// engine/ (the pure calculation), recalc/ (recalculating stored lines), lines/ (reading and writing
// lines, adjustments, statements, CSV, payouts) and impact/ (a plan change's effect). Only what other
// features use is exported here; tests reach the rest through the sub-surface indexes or testing.ts.
import { setRatesChangeHandler } from "../exchange-rates/index.js";
import { setReportingChangeHandler } from "../users/index.js";
import { recalculateRatesChange, recalculateReportingChange } from "./recalc/index.js";

// A reporting change (users/, a floor below) reaches the override lines through this port, and a rate
// change (exchange-rates/) the lines that convert.
setReportingChangeHandler(recalculateReportingChange);
setRatesChangeHandler(recalculateRatesChange);

export { periodOf, periodRange, quarterOf } from "./engine/index.js";
export { OVERRIDE_LINE_IMPACT, PLAN_LINE_IMPACT, SPIFF_LINE_IMPACT } from "./explanation.js";
export {
  impactSize,
  type LineChange,
  noImpact,
  type PlanChangeImpact,
  planChangeImpact,
  reportingChangeImpact,
} from "./impact/index.js";
export {
  addAdjustment,
  adjustmentLineIds,
  announceClawbacks,
  type ClawbackDealInput,
  CSV_BOM,
  type CsvLine,
  correctLockedHistory,
  csvAttachment,
  csvField,
  csvResponse,
  csvText,
  csvTextField,
  type DisputeSource,
  defaultAdjustmentCurrency,
  defaultAdjustmentPeriod,
  disputeAdjustmentPeriod,
  disputeReason,
  fullyPaidDeals,
  getCommission,
  getStatement,
  type LineTotals,
  linesOfDeal,
  lineTotalsOf,
  listCommissions,
  listRunLines,
  listTeamStatements,
  lockDealLines,
  lockPayments,
  lockRunOfDealLines,
  markDealLinesPaid,
  type PlannedClawbacks,
  planClawbacks,
  readLineTotals,
  setLinesAddedHandler,
  voidDealLines,
  wantsCsv,
  writeClawbacks,
} from "./lines/index.js";
export {
  bucketsOfDeals,
  currentExplanations,
  type DateRange,
  type GroupedWork,
  type GroupMember,
  inGroupedTurnFor,
  inTurnFor,
  lockForRecalc,
  priceUnsavedDeal,
  recalculate,
  recalculateJobHandler,
  refreshTotals,
  reportingTarget,
  toPlanInput,
  unsavedCredits,
} from "./recalc/index.js";
export { adjustmentRoutes, commissionRoutes } from "./routes/index.js";
export {
  Commission,
  CreateAdjustmentBody,
  DealExplanation,
  dealExplanation,
  FxMissingPair,
  ListCommissionsQuery,
  NoContent,
  PeriodSummary,
  PlanTier,
  Preview,
  PreviewLine,
  RecalculationJobId,
  Statement,
  StatementLine,
  StatementQuery,
  TeamStatement,
  TeamStatementsQuery,
} from "./schema.js";
