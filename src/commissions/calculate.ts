// The pure commission engine (API.md §5): plain data in, lines with explanations out.
// No I/O, no clock, no randomness; money is decimal strings, computed with decimal.js.
export { type Band, bandsOf, sliceBands } from "./calculate/bands.js";
export { applyCap, calculateBucket, priceLine } from "./calculate/bucket.js";
export { amountNumber, Dec, formatMoney, formatPercent, plain, roundCents, toCents } from "./calculate/decimal.js";
export { periodOf, periodRange, quarterOf } from "./calculate/periods.js";
export { compareDealOrder, creditsOf, findPlan, noPlanExplanation } from "./calculate/plans.js";
export { calculateSpiffLines, checkSpiff, type SpiffCheck } from "./calculate/spiffs.js";
export type * from "./calculate/types.js";
