// The commission side of a plan change's impact (POST /comp-plans/{id}/impact): what the edit would
// move, line by line and by period, computed as the recalculation and the retroactive corrections would.
export {
  impactSize,
  type LineChange,
  noImpact,
  type PeriodImpact,
  type PlanChangeImpact,
  planChangeImpact,
  reportingChangeImpact,
  type Sums,
} from "./plan-change.js";
