import {
  Assignment,
  ListAssignmentsQuery,
  listAssignments,
  PlanImpact,
  requestPlanChangeImpact,
  UpdatePlanBody,
} from "../comp-plans/index.js";
import { listOf } from "../http/pagination.js";
import { defineTool, type McpTool, READ_ONLY, READS, withId } from "./tool.js";

/** The impact's first page: enough lines to read, small enough for a model's context. */
const FIRST_LINES = { page: 1, per_page: 20 };

/** Comp-plan tools beyond the plan reads: who is assigned, and the admin's change preview (API.md §12). */
export const PLAN_TOOLS: readonly McpTool[] = [
  defineTool({
    name: "list_plan_assignments",
    title: "List a comp plan's assignments",
    description:
      "A comp plan's assignments by plan id (plan_…), newest first, as GET /api/v1/comp-plans/{id}/assignments: who " +
      `is on the plan from effective_from to effective_to, with any quota_override; filter user_id; page, per_page. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: withId(ListAssignmentsQuery),
    output: listOf(Assignment),
    annotations: READS,
    run: (ctx, { id, ...query }) => listAssignments(ctx, id, query),
  }),
  defineTool({
    name: "preview_plan_change",
    title: "Preview a comp plan change",
    description:
      "Takes a plan id (plan_…) and the changes a PATCH /api/v1/comp-plans/{id} body would make (base_rate, tiers, " +
      "quota, deal_type_multipliers, min_deal_amount, cap_per_period, effective dates, status…; omitted fields " +
      "stay) and answers as POST " +
      "/api/v1/comp-plans/{id}/impact?per_page=20 does: the summary (users, deals, lines, pending_delta, " +
      "locked_delta), each affected user's periods before and after, and the first 20 changed lines, largest " +
      "|delta| first (lines.meta.total counts them all). pending is what applying the change recalculates; locked " +
      "is what a retroactive apply would write as adjustments. Read-only: it never changes the plan or any line. " +
      "A change reaching more than 20,000 lines is refused (conflict): use the REST route, which answers with a job.",
    scope: "admin",
    access: "admin",
    input: withId(UpdatePlanBody),
    output: PlanImpact,
    annotations: READS,
    run: async (ctx, { id, ...patch }) => {
      const outcome = await requestPlanChangeImpact(ctx, id, patch, FIRST_LINES, "refuse");
      if (!("answer" in outcome)) throw new Error("unreachable: an MCP preview never queues a job");
      return outcome.answer;
    },
  }),
];
