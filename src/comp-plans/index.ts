// The comp-plans feature as other folders see it: plans and assignments (routes, services, schemas).
export { createAssignment, listAssignments } from "./assignments-service.js";
export {
  PLAN_IMPACT_JOB_KIND,
  planImpactJobHandler,
  requestPlanChangeImpact,
  setImpactInlineLimit,
} from "./impact-job.js";
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
export { createPlan, getPlan, listPlans } from "./service.js";
