import { MAY } from "../access/index.js";
import { NoContent } from "../commissions/index.js";
import { declareRoutes, type RecordRef } from "../declare-routes.js";
import { IdParams } from "../http/input-fields.js";
import type { App } from "../http/types.js";
import { JobSchema } from "../jobs/schema.js";
import type { NotificationSettings } from "../notifications/index.js";
import { ReportingChangeBody } from "../users/index.js";
import { createAssignment } from "./assign.js";
import { createPlan } from "./create.js";
import { deleteAssignment } from "./delete-assignment.js";
import { requestPlanChangeImpact } from "./impact-job.js";
import { listPlans } from "./list.js";
import { getAssignment, listAllAssignments, listAssignments } from "./list-assignments.js";
import { listPlanVersions } from "./list-versions.js";
import { getPlan } from "./read.js";
import { previewReportingChange } from "./reporting-impact.js";
import {
  Assignment,
  AssignmentWritten,
  CompPlan,
  CompPlanWritten,
  CreateAssignmentBody,
  CreatePlanBody,
  ListAllAssignmentsQuery,
  ListAssignmentsQuery,
  ListPlansQuery,
  ListPlanVersionsQuery,
  PlanImpact,
  PlanImpactQuery,
  PlanVersion,
  ReportingImpact,
  UpdateAssignmentBody,
  UpdatePlanBody,
} from "./schema.js";
import { updatePlan } from "./update.js";
import { updateAssignment } from "./update-assignment.js";

const PLAN_EDIT =
  "Merges: omitted fields stay, null clears a nullable field (tiers: null removes the tiers); tiers and " +
  "deal_type_multipliers are replaced whole; `kind` never changes (another kind is 422). Changing the terms " +
  "(currency, period, quota, rates, tiers, multipliers, minimum, cap, override levels, dates) of an active plan creates a new " +
  "`version`; pending lines are recalculated with it, locked lines keep theirs. Name, description and status " +
  'changes keep the version; a status change also recalculates (only active plans earn). With `"retroactive": true`, ' +
  "locked lines the new terms reprice get one approved, locked adjustment line each (new − old) in the same " +
  "transaction, and the response carries `retroactive_adjustments`; POST /comp-plans/{id}/impact shows the same " +
  "numbers beforehand.";

const IMPACT =
  "Takes a PATCH /comp-plans/{id} body and answers as if it were applied now, writing nothing (API.md §12). " +
  "`pending`: what the PATCH recalculates, by the same computation. `locked`: approved, disputed and paid lines " +
  "under the new terms, each (user, plan, period) recomputed in deal order as if nothing were locked — what " +
  "`retroactive: true` writes as adjustments; only a terms change reprices them. Unchanged lines are not listed; " +
  "`lines` is paginated, largest |delta| first, each naming its deal (`opportunity_name`, `close_date`) beside " +
  "`deal_id`; `retroactive` here changes nothing. Up to 20,000 of an active plan's lines (of every " +
  "status; a plan not active: its lines and its people's pending credits): answered within the request (200). " +
  "Larger: `202` with a `plan_impact` Job; once it succeeded, " +
  "`GET /jobs/{id}` holds this answer (for the page asked) in `result`.";

const PLAN: RecordRef = { path: "/comp-plans/:id", schema: CompPlan };
const ASSIGNMENT: RecordRef = { path: "/plan-assignments/:id", schema: Assignment };

/** `mail`: email configured, so an assignment or a new version emails who is asked to acknowledge it. */
export function compPlanRoutes(app: App, mail?: NotificationSettings): void {
  const route = declareRoutes(app, ["Comp plans"]);
  route.list(
    { path: "/comp-plans", scope: "read", summary: "List comp plans", query: ListPlansQuery, item: CompPlan },
    ({ ctx, query }) => listPlans(ctx, query),
  );

  route.getById({ path: "/comp-plans/:id", scope: "read", summary: "Get a comp plan", response: CompPlan }, getPlan);

  route.list(
    {
      path: "/comp-plans/:id/versions",
      scope: "read",
      summary: "List a comp plan's versions",
      description: "Each version's terms, newest first; whoever sees the plan sees them.",
      params: IdParams,
      query: ListPlanVersionsQuery,
      item: PlanVersion,
    },
    ({ ctx, params, query }) => listPlanVersions(ctx, params.id, query),
  );

  route.create(
    {
      path: "/comp-plans",
      scope: "admin",
      summary: "Create a comp plan",
      description:
        "Required: name, period, effective_from, and base_rate or tiers. currency defaults to USD, status to active, " +
        "kind to standard. Tiers ascend from from_attainment 0 and need quota > 0. An override plan (`kind: " +
        '"override"`, API.md §16) requires override_levels instead and refuses quota, base_rate, tiers, ' +
        "deal_type_multipliers, min_deal_amount and cap_per_period.",
      body: CreatePlanBody,
      response: CompPlanWritten,
      represents: PLAN,
    },
    ({ ctx, body }) => createPlan(ctx, body),
  );

  route.patchById(
    {
      path: "/comp-plans/:id",
      scope: "admin",
      ifMatch: { read: getPlan, schema: CompPlan },
      summary: "Update a comp plan",
      description: PLAN_EDIT,
      body: UpdatePlanBody,
      response: CompPlanWritten,
    },
    (ctx, id, body) => updatePlan(ctx, id, body, mail),
  );

  route.postOrAccept(
    {
      path: "/comp-plans/:id/impact",
      scope: "admin",
      roles: MAY.previewPlanChange,
      summary: "Preview a plan change",
      description: IMPACT,
      params: IdParams,
      query: PlanImpactQuery,
      body: UpdatePlanBody,
      response: PlanImpact,
      accepted: JobSchema,
    },
    ({ ctx, params, query, body }) => requestPlanChangeImpact(ctx, params.id, body, query),
  );

  assignmentRoutes(app, mail);
  reportingImpactRoute(app);
}

/**
 * A reporting change's impact is a plan-change impact's kind of answer (API.md §16 and §12), so this
 * feature serves it, under the user's URL.
 */
function reportingImpactRoute(app: App): void {
  const route = declareRoutes(app, ["Users"]);
  route.post(
    {
      path: "/users/:id/reporting-lines/impact",
      scope: "admin",
      roles: MAY.previewPlanChange,
      summary: "Preview a reporting change",
      description:
        "Takes a PATCH /users/{id} manager change (`{manager_id, manager_effective_from?}`) or a PUT " +
        "/users/{id}/reporting-lines body (`{lines}`), checks it as they do (404, 422), and answers what it would do to " +
        "pending override lines (API.md §16), as POST /comp-plans/{id}/impact answers for a plan: a summary, each " +
        "user's periods, and the changed lines (paginated, largest |delta| first). Nothing is written; locked lines " +
        "never move with a reporting change. `lines_before` and `lines_after` are the user's reporting lines now and " +
        "as the change would leave them.",
      params: IdParams,
      query: PlanImpactQuery,
      body: ReportingChangeBody,
      response: ReportingImpact,
    },
    ({ ctx, params, query, body }) => previewReportingChange(ctx, params.id, body, query),
  );
}

function assignmentRoutes(app: App, mail: NotificationSettings | undefined): void {
  const route = declareRoutes(app, ["Comp plans"]);
  route.list(
    {
      path: "/comp-plans/:id/assignments",
      scope: "read",
      summary: "List plan assignments",
      description: "The plan's assignments, newest first (created_at desc, id desc).",
      params: IdParams,
      query: ListAssignmentsQuery,
      item: Assignment,
    },
    ({ ctx, params, query }) => listAssignments(ctx, params.id, query),
  );

  route.create(
    {
      path: "/comp-plans/:id/assignments",
      scope: "admin",
      summary: "Assign a plan to a user",
      description:
        "Both dates inclusive; effective_to null = open-ended. A user has at most one assignment in force per plan " +
        "kind on any date (a standard and an override plan may overlap): an overlap is 409 conflict. The user's " +
        "pending lines in the span are recalculated.",
      params: IdParams,
      body: CreateAssignmentBody,
      response: AssignmentWritten,
      represents: ASSIGNMENT,
    },
    ({ ctx, params, body }) => createAssignment(ctx, params.id, body, mail),
  );

  route.list(
    {
      path: "/plan-assignments",
      scope: "read",
      summary: "List all plan assignments",
      description: "Every plan's assignments, newest first; a person's session lists those of the users it sees.",
      query: ListAllAssignmentsQuery,
      item: Assignment,
    },
    ({ ctx, query }) => listAllAssignments(ctx, query),
  );

  route.getById(
    { path: "/plan-assignments/:id", scope: "read", summary: "Get a plan assignment", response: Assignment },
    getAssignment,
  );

  route.patchById(
    {
      path: "/plan-assignments/:id",
      scope: "admin",
      ifMatch: { read: getAssignment, schema: Assignment },
      summary: "Update a plan assignment",
      description: "Merges effective_from, effective_to and quota_override; overlaps are 409 conflict.",
      body: UpdateAssignmentBody,
      response: AssignmentWritten,
    },
    updateAssignment,
  );

  route.deleteById(
    {
      path: "/plan-assignments/:id",
      scope: "admin",
      summary: "Delete a plan assignment",
      description: "The user's pending lines in its span are recalculated.",
      response: NoContent,
    },
    deleteAssignment,
  );
}
