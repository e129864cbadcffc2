// What tests reach inside commissions beyond the feature's index and the sub-surface indexes: tunables,
// counters and internals that property tests drive directly. Never imported by src/.
export { AdjustmentExplanation, ClawbackExplanation, PlanExplanation, SpiffExplanation } from "./explanation.js";
export { CSV_HEADER, csvRow } from "./lines/csv.js";
export { planPeriodOn } from "./lines/plan-period-on.js";
export { exportCommissions } from "./lines/read.js";
export { allLines } from "./lines/repository.js";
export { appendCounter } from "./recalc/append-repository.js";
export { computeBucket } from "./recalc/compute.js";
export { countCredits, loadCredits } from "./recalc/credits-repository.js";
export { planRecalc } from "./recalc/plan.js";
export { RECALC_JOB_KIND, setInlineLimit } from "./recalc/recalculate.js";
export { batchUsers, setBatchCredits } from "./recalc/recalculate-job.js";
export type { BucketKey, DesiredLine, EntryRow, PlanContext } from "./recalc/types.js";
export { settle } from "./recalc/write-repository.js";
export { PayoutGroup } from "./schema.js";
