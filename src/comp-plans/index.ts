// The comp-plans feature as other folders see it: plans and assignments (routes, services, schemas).
// Services are a file per action: create, read, list, list-versions, update (edit.ts: what a PATCH
// makes of a plan), assign, list-assignments, update-assignment, delete-assignment.
export { createAssignment } from "./assign.js";
export { createPlan } from "./create.js";
export {
  PLAN_IMPACT_JOB_KIND,
  planImpactJobHandler,
  requestPlanChangeImpact,
  setImpactInlineLimit,
} from "./impact-job.js";
export { listPlans } from "./list.js";
export { listAssignments } from "./list-assignments.js";
export { getPlan } from "./read.js";
export { compPlanRoutes } from "./routes.js";
export {
  Assignment,
  CompPlan,
  CreateAssignmentBody,
  CreatePlanBody,
  ListAssignmentsQuery,
  ListPlansQuery,
  PlanImpact,
  UpdatePlanBody,
} from "./schema.js";
