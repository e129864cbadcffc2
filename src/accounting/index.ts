// Commission-cost accounting (API.md §17) as other folders see it: booking called by the deal workflow,
// the routes, the reports the MCP tools call, and the pure schedule arithmetic.
import { setLinesAddedHandler } from "../commissions/index.js";
import { bookDeal } from "./book.js";

// A retroactive correction's adjustment lines move the assets of the deals it wrote them on.
setLinesAddedHandler(async (tx, dealIds) => {
  for (const id of dealIds) await bookDeal(tx, id);
});

export { bookApproval, bookDeal, buildEarlierAssets } from "./book.js";
export { listJournal } from "./journal.js";
export { getRollForward, listSchedules } from "./reports.js";
export { accountingRoutes } from "./routes.js";
export {
  type AccountingTerms,
  type AssetEvent,
  addMonths,
  amortizationPeriod,
  assetSchedule,
  type CapitalizedAsset,
  monthOf,
  monthsBetween,
  type ScheduleMonth,
  straightLine,
  termMonths,
} from "./schedule.js";
export {
  type AccountingAsset,
  AccountingSettings,
  JournalQuery,
  PutAccountingSettingsBody,
  RollForward,
  RollForwardQuery,
  ScheduleQuery,
} from "./schema.js";
export { getAccountingSettings, putAccountingSettings } from "./settings.js";
