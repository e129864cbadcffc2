import {
  Commission,
  getCommission,
  getStatement,
  ListCommissionsQuery,
  listCommissions,
  Preview,
  Statement,
  StatementQuery,
} from "../commissions/index.js";
import { CompPlan, getPlan, ListPlansQuery, listPlans } from "../comp-plans/index.js";
import {
  CreateDealBody,
  createDeal,
  Deal,
  DealDetail,
  ExternalIdParams,
  getDeal,
  ListDealsQuery,
  listDeals,
  PreviewBody,
  previewDeal,
  UpdateDealBody,
  updateDeal,
  upsertDeal,
} from "../deals/index.js";
import { IdParams } from "../http/input-fields.js";
import { listOf } from "../http/pagination.js";
import { getSpiff, ListSpiffsQuery, listSpiffs, Spiff } from "../spiffs/index.js";
import {
  CreateUserBody,
  createUser,
  getUser,
  ListUsersQuery,
  listUsers,
  UpdateUserBody,
  User,
  updateUser,
} from "../users/index.js";
import { CREATES, defineTool, type McpTool, READS, UPDATES, withId } from "./tool.js";
import { PLAN_TOOLS } from "./tools-plans.js";
import { WORKFLOW_TOOLS } from "./tools-workflow.js";

const READ_ONLY = "Read-only: it never changes anything.";
const NEVER_APPROVES = "It never approves, rejects or pays a deal.";

/**
 * Every MCP tool, once (API.md §9). A key sees and may call a row only when its scope allows `scope`
 * and the owner granted `access` (gate.ts). The workflow rows (approve, reject, pay, disputes) are in
 * tools-workflow.ts, the comp-plan admin rows in tools-plans.ts.
 */
export const TOOLS: readonly McpTool[] = [
  defineTool({
    name: "list_deals",
    title: "List deals",
    description:
      "Lists deals as GET /api/v1/deals does: filters status (one or comma-separated: pending, approved, rejected, " +
      "disputed, paid), owner_id, close_date_from, close_date_to, updated_since, external_id, q (name contains); " +
      "sort by created_at, close_date, arr_amount or total_commission (prefix - for descending); page, per_page. " +
      `Items carry no commission lines (get_deal has them). ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: ListDealsQuery,
    output: listOf(Deal),
    annotations: READS,
    run: (ctx, args) => listDeals(ctx, args),
  }),
  defineTool({
    name: "get_deal",
    title: "Get a deal",
    description: `Returns one deal by id (deal_…) with its commission lines and why any credited user earns none. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: IdParams,
    output: DealDetail,
    annotations: READS,
    run: (ctx, { id }) => getDeal(ctx, id),
  }),
  defineTool({
    name: "create_deal",
    title: "Create a deal",
    description:
      "Creates a pending deal and calculates its commissions (the result carries total_commission and the lines). " +
      "Required: opportunity_name, arr_amount, close_date, owner_id; currency defaults to USD, deal_type to " +
      `new_business, splits to the owner at 100. ${NEVER_APPROVES}`,
    scope: "write",
    access: "write",
    input: CreateDealBody,
    output: DealDetail,
    annotations: CREATES,
    run: (ctx, args) => createDeal(ctx, args),
  }),
  defineTool({
    name: "update_deal",
    title: "Update a deal",
    description:
      "Edits a pending or rejected deal by id and recalculates it; omitted fields stay, editing a rejected deal " +
      `resubmits it as pending. Approved, disputed and paid deals are refused (invalid_transition). ${NEVER_APPROVES}`,
    scope: "write",
    access: "write",
    input: withId(UpdateDealBody),
    output: DealDetail,
    annotations: UPDATES,
    run: (ctx, { id, ...changes }) => updateDeal(ctx, id, changes),
  }),
  defineTool({
    name: "upsert_deal",
    title: "Create or replace a deal by CRM id",
    description:
      "The CRM sync path (PUT /api/v1/deals/by-external-id/{external_id}): creates the deal with this external_id " +
      "or replaces its writable fields whole (omitted ones take their defaults). The same body again changes " +
      `nothing; a change to an approved, disputed or paid deal is refused. ${NEVER_APPROVES}`,
    scope: "write",
    access: "write",
    input: CreateDealBody.extend(ExternalIdParams.shape),
    output: DealDetail,
    annotations: UPDATES,
    run: async (ctx, args) => (await upsertDeal(ctx, args.external_id, args)).deal,
  }),
  ...WORKFLOW_TOOLS,
  defineTool({
    name: "preview_commission",
    title: "Preview a deal's commissions",
    description:
      "Prices a deal body exactly as create_deal would (same arguments and checks), optionally under plan_id (a " +
      "draft plan too), and returns the lines it would earn. It persists nothing: no deal, no line, no event.",
    scope: "read",
    access: "read",
    input: PreviewBody,
    output: Preview,
    annotations: READS,
    run: (ctx, args) => previewDeal(ctx, args),
  }),
  defineTool({
    name: "list_users",
    title: "List users",
    description:
      "Lists the company's people (reps, managers, admins, finance), newest first, as GET /api/v1/users does: " +
      'filters role, active ("true"/"false"), manager_id, email (exact, case-insensitive); page, per_page. ' +
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
      "cannot form a cycle. Deactivate with active: false. It never deletes a user and never edits their deals.",
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
      `non-void lines of that period, per-plan quota and attainment, totals by kind. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: withId(StatementQuery),
    output: Statement,
    annotations: READS,
    run: (ctx, { id, period }) => getStatement(ctx, id, period),
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
    description: `Lists comp plans, as GET /api/v1/comp-plans does: filter status (draft, active, archived); page, per_page. ${READ_ONLY}`,
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
    description: `Returns one comp plan by id (plan_…): rates, tiers, quota, multipliers, minimum, cap, version. ${READ_ONLY}`,
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
    description: `Lists SPIFFs (time-boxed bonuses), as GET /api/v1/spiffs does: filter active ("true"/"false"); page, per_page. ${READ_ONLY}`,
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
