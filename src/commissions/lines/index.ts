// Commission lines as the routes and other features see them: reading lines and statements, CSV,
// adjustments (and a dispute's), the retroactive corrections of locked history, the lines of one deal
// as the deal workflow moves them, and what is approved but not yet paid.
export {
  addAdjustment,
  type DisputeSource,
  defaultAdjustmentPeriod,
  disputeAdjustmentPeriod,
  disputeReason,
} from "./adjustments.js";
export {
  announceClawbacks,
  type ClawbackDealInput,
  type PlannedClawbacks,
  planClawbacks,
  writeClawbacks,
} from "./clawbacks.js";
export { type CsvLine, csvText, wantsCsv } from "./csv.js";
export { CSV_FORMAT, csvResponse, sendCommissionsCsv, sendStatementCsv } from "./csv-reply.js";
export {
  adjustmentLineIds,
  type LineTotals,
  linesOfDeal,
  lineTotalsOf,
  lockDealLines,
  markDealLinesPaid,
  readLineTotals,
  voidDealLines,
} from "./deal-lines.js";
export { listPeriods } from "./list-periods.js";
export { listTeamStatements } from "./list-team-statements.js";
export { listPayouts } from "./payouts.js";
export { getCommission, listCommissions } from "./read.js";
export { correctLockedHistory, type RetroactiveResult } from "./retroactive.js";
export { getStatement } from "./statement.js";
