import {
  Commission,
  getCommission,
  getStatement,
  ListCommissionsQuery,
  listCommissions,
  listTeamStatements,
  Statement,
  StatementQuery,
  TeamStatement,
  TeamStatementsQuery,
} from "../commissions/index.js";
import { CompPlan, getPlan, ListPlansQuery, listPlans } from "../comp-plans/index.js";
import { IdParams } from "../http/input-fields.js";
import { listOf } from "../http/pagination.js";
import { getSpiff, ListSpiffsQuery, listSpiffs, Spiff } from "../spiffs/index.js";
import {
  CreateUserBody,
  createUser,
  getUser,
  ListUsersQuery,
  listReportingLines,
  listUsers,
  ReportingLines,
  UpdateUserBody,
  User,
  updateUser,
} from "../users/index.js";
import { CREATES, defineTool, type McpTool, READ_ONLY, READS, UPDATES, withId } from "./tool.js";
import { ACCOUNTING_TOOLS } from "./tools-accounting.js";
import { CLAWBACK_TOOLS } from "./tools-clawbacks.js";
import { DEAL_TOOLS } from "./tools-deals.js";
import { DRAW_TOOLS } from "./tools-draws.js";
import { EXCHANGE_RATE_TOOLS } from "./tools-exchange-rates.js";
import { NOTIFICATION_TOOLS } from "./tools-notifications.js";
import { PAYOUT_RUN_TOOLS } from "./tools-payout-runs.js";
import { PLAN_TOOLS } from "./tools-plans.js";
import { WORKFLOW_TOOLS } from "./tools-workflow.js";

/**
 * Every MCP tool, once (API.md §9). A key sees and may call a row only when its scope allows `scope`
 * and the owner granted `access` (gate.ts). The deal rows are in tools-deals.ts, the workflow rows
 * (approve, reject, pay, disputes) in tools-workflow.ts, the comp-plan rows beyond reads in tools-plans.ts.
 */
export const TOOLS: readonly McpTool[] = [
  ...DEAL_TOOLS,
  ...WORKFLOW_TOOLS,
  ...PAYOUT_RUN_TOOLS,
  ...DRAW_TOOLS,
  ...ACCOUNTING_TOOLS,
  ...CLAWBACK_TOOLS,
  ...EXCHANGE_RATE_TOOLS,
  ...NOTIFICATION_TOOLS,
  defineTool({
    name: "list_users",
    title: "List users",
    description:
      "Lists the company's people (reps, managers, admins, finance), newest first, as GET /api/v1/users does: " +
      "filters role, active (true or false), manager_id, email (exact, case-insensitive), q (name or email " +
      "contains, case-insensitive); page, per_page. " +
      READ_ONLY,
    scope: "read",
    access: "read",
    input: ListUsersQuery,
    output: listOf(User),
    annotations: READS,
    run: (ctx, args) => listUsers(ctx, args),
  }),
  defineTool({
    name: "get_user",
    title: "Get a user",
    description: `Returns one user by id (usr_…). ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: IdParams,
    output: User,
    annotations: READS,
    run: (ctx, { id }) => getUser(ctx, id),
  }),
  defineTool({
    name: "list_reporting_lines",
    title: "List a user's reporting lines",
    description:
      "Who a user (usr_…) reported to over time, oldest first, as GET /api/v1/users/{id}/reporting-lines: " +
      "{manager_id, effective_from, effective_to}, dates inclusive, effective_to null on today's line, " +
      `manager_id null for a span with no manager. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: IdParams,
    output: ReportingLines,
    annotations: READS,
    run: (ctx, { id }) => listReportingLines(ctx, id),
  }),
  defineTool({
    name: "create_user",
    title: "Create a user",
    description:
      "Adds a person who can own deals and earn commissions: name and email required, role defaults to rep, " +
      "active to true; email and external_id must be unique. It creates no API key and gives the person no " +
      "access to this service.",
    scope: "write",
    access: "write",
    input: CreateUserBody,
    output: User,
    annotations: CREATES,
    run: (ctx, args) => createUser(ctx, args),
  }),
  defineTool({
    name: "update_user",
    title: "Update a user",
    description:
      "Changes a user's fields by id: omitted fields stay, null clears external_id or manager_id; managers " +
      "cannot form a cycle on any date. A new manager_id counts from manager_effective_from (YYYY-MM-DD, default " +
      "today; not before the current reporting line starts). Deactivate with active: false. It never deletes a user and never edits their deals.",
    scope: "write",
    access: "write",
    input: withId(UpdateUserBody),
    output: User,
    annotations: UPDATES,
    run: (ctx, { id, ...changes }) => updateUser(ctx, id, changes),
  }),
  defineTool({
    name: "get_statement",
    title: "Get a user's statement",
    description:
      "A user's statement for one period (YYYY-MM, YYYY-Qn or YYYY), as GET /api/v1/users/{id}/statement: their " +
      "non-void lines of that period, per-plan quota and attainment, totals by kind in one currency (optional " +
      `currency; default the plan's) and totals_by_currency. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: withId(StatementQuery.omit({ deal_columns: true })),
    output: Statement,
    annotations: READS,
    run: (ctx, { id, period, currency }) => getStatement(ctx, id, period, currency),
  }),
  defineTool({
    name: "list_team_statements",
    title: "List people with their statement's numbers",
    description:
      "For one period (YYYY-MM, YYYY-Qn or YYYY), or each person's own plan period on a date (`on`), the people " +
      "list_users would list (same filters and pages), " +
      "each with their statement's per-plan quota and attainment, totals by kind and by status, as GET " +
      `/api/v1/users/statements: a team's pay in one call. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: TeamStatementsQuery,
    output: listOf(TeamStatement),
    annotations: READS,
    run: (ctx, args) => listTeamStatements(ctx, args),
  }),
  defineTool({
    name: "list_commissions",
    title: "List commission lines",
    description:
      "Lists commission lines, newest first, as GET /api/v1/commissions does: filters user_id, deal_id, status " +
      "(pending, approved, paid, void) and kind (plan, spiff, adjustment), each one or comma-separated, period; " +
      `page, per_page. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: ListCommissionsQuery,
    output: listOf(Commission),
    annotations: READS,
    run: (ctx, args) => listCommissions(ctx, args),
  }),
  defineTool({
    name: "get_commission",
    title: "Get a commission line",
    description: `Returns one commission line by id (com_…) with its explanation: how the amount was reached. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: IdParams,
    output: Commission,
    annotations: READS,
    run: (ctx, { id }) => getCommission(ctx, id),
  }),
  defineTool({
    name: "list_comp_plans",
    title: "List comp plans",
    description: `Lists comp plans, as GET /api/v1/comp-plans does: filter status (draft, active, archived), kind (standard, override); page, per_page. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: ListPlansQuery,
    output: listOf(CompPlan),
    annotations: READS,
    run: (ctx, args) => listPlans(ctx, args),
  }),
  defineTool({
    name: "get_comp_plan",
    title: "Get a comp plan",
    description: `Returns one comp plan by id (plan_…): kind, rates, tiers, quota, multipliers, minimum, cap, override levels, version. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: IdParams,
    output: CompPlan,
    annotations: READS,
    run: (ctx, { id }) => getPlan(ctx, id),
  }),
  ...PLAN_TOOLS,
  defineTool({
    name: "list_spiffs",
    title: "List SPIFFs",
    description: `Lists SPIFFs (time-boxed bonuses), as GET /api/v1/spiffs does: filter active (true or false); page, per_page. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: ListSpiffsQuery,
    output: listOf(Spiff),
    annotations: READS,
    run: (ctx, args) => listSpiffs(ctx, args),
  }),
  defineTool({
    name: "get_spiff",
    title: "Get a SPIFF",
    description: `Returns one SPIFF by id (spiff_…): window, criteria and payout. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: IdParams,
    output: Spiff,
    annotations: READS,
    run: (ctx, { id }) => getSpiff(ctx, id),
  }),
];

export function findTool(name: string): McpTool | undefined {
  return TOOLS.find((tool) => tool.name === name);
}
