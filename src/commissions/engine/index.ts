// The pure commission engine (API.md §5): plain data in, lines with explanations out.
// No I/O, no clock, no randomness; money is decimal strings, computed exactly as scaled integers
// (src/money).
export { type Band, bandsOf, type Slice, sliceBands } from "./bands.js";
export { applyCap, calculateBucket, type PlanTerms, priceLine, termsOf } from "./bucket.js";
export {
  type ClawbackDeal,
  type ClawbackEvent,
  type ClawbackExplanation,
  type ClawbackInput,
  type ClawbackLine,
  type ClawbackPlan,
  type ClawbackPolicy,
  type ClawbackResult,
  type ClawbackSourceLine,
  type ClawbackSummaryItem,
  computeClawbacks,
  daysBetween,
  versionKey,
} from "./clawback.js";
export { type Conversion, conversionFor, DEFAULT_FX_MAX_AGE_DAYS, roundLine } from "./convert.js";
export {
  calculateOverrideLines,
  MAX_OVERRIDE_DEPTH,
  managerOn,
  type OverrideContext,
  type OverrideLevelExplanation,
  type OverrideLineExplanation,
  type OverrideLineResult,
} from "./overrides.js";
export { periodOf, periodRange, quarterOf } from "./periods.js";
export { compareDealOrder, creditsOf, findPlan, noPlanExplanation } from "./plans.js";
export { calculateSpiffLines, checkSpiff, type SpiffCheck } from "./spiffs.js";
export type * from "./types.js";
