// Commission lines as the routes and other features see them: reading lines and statements, CSV,
// adjustments (and a dispute's), the retroactive corrections of locked history, the lines of one deal
// as the deal workflow moves them, and what is approved but not yet paid.
export {
  addAdjustment,
  type DisputeSource,
  defaultAdjustmentCurrency,
  defaultAdjustmentPeriod,
  disputeAdjustmentPeriod,
  disputeReason,
} from "./adjustments.js";
export { type LinesAddedHandler, setLinesAddedHandler } from "./booking-port.js";
export {
  announceClawbacks,
  type ClawbackDealInput,
  type PlannedClawbacks,
  planClawbacks,
  writeClawbacks,
} from "./clawbacks.js";
export { CSV_BOM, type CsvLine, csvAttachment, csvField, csvText, csvTextField, wantsCsv } from "./csv.js";
export { CSV_FORMAT, csvResponse, sendCommissionsCsv, sendStatementCsv } from "./csv-reply.js";
export {
  adjustmentLineIds,
  fullyPaidDeals,
  type LineTotals,
  linesOfDeal,
  lineTotalsOf,
  lockDealLines,
  lockPayments,
  lockRunOfDealLines,
  markDealLinesPaid,
  readLineTotals,
  voidDealLines,
} from "./deal-lines.js";
export { listPeriods } from "./list-periods.js";
export { listTeamStatements } from "./list-team-statements.js";
export { listPayouts } from "./payouts.js";
export { getCommission, listCommissions, listRunLines } from "./read.js";
export { correctLockedHistory, type RetroactiveResult } from "./retroactive.js";
export { getStatement } from "./statement.js";
