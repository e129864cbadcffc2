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
