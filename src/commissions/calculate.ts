// The pure commission engine (API.md §5): plain data in, lines with explanations out.
// No I/O, no clock, no randomness; money is decimal strings, computed exactly as scaled integers
// (calculate/fixed.ts). decimal.js helpers stay exported for the services' own sums and checks.
export { type Band, bandsOf, type Slice, sliceBands } from "./calculate/bands.js";
export { applyCap, calculateBucket, type PlanTerms, priceLine, termsOf } from "./calculate/bucket.js";
export { amountNumber, Dec, formatMoney, formatPercent, plain, roundCents, toCents } from "./calculate/decimal.js";
export { periodOf, periodRange, quarterOf } from "./calculate/periods.js";
export { compareDealOrder, creditsOf, findPlan, noPlanExplanation } from "./calculate/plans.js";
export { calculateSpiffLines, checkSpiff, type SpiffCheck } from "./calculate/spiffs.js";
export type * from "./calculate/types.js";
