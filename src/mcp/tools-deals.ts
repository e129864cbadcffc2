import { AuditEvent } from "../audit/schema.js";
import { Preview } from "../commissions/index.js";
import {
  CreateDealBody,
  createDeal,
  Deal,
  DealDetail,
  DealHistoryQuery,
  dealHistory,
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
import { getJob } from "../jobs/read.js";
import { JobSchema } from "../jobs/schema.js";
import { CREATES, defineTool, type McpTool, READ_ONLY, READS, UPDATES, withId } from "./tool.js";

const NEVER_APPROVES = "It never approves, rejects or pays a deal.";

/** The deal rows of the tool table (API.md §9): reads, writes, the CRM upsert, the preview, history and jobs. */
export const DEAL_TOOLS: readonly McpTool[] = [
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
    name: "get_deal_history",
    title: "Get a deal's history",
    description:
      "A deal's audit trail by id (deal_…), newest first, as GET /api/v1/deals/{id}/history: who created, edited, " +
      "approved, rejected or paid it, its disputes opened and resolved, adjustments to its lines; each event with " +
      `its actor, before and after. page, per_page. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: withId(DealHistoryQuery),
    output: listOf(AuditEvent),
    annotations: READS,
    run: (ctx, { id, ...page }) => dealHistory(ctx, id, page),
  }),
  defineTool({
    name: "get_job",
    title: "Get a background job",
    description:
      "A background job by id (job_…), as GET /api/v1/jobs/{id}: the recalculation a deal or plan change started " +
      "(its recalculation_job_id), with status (queued, running, succeeded, failed), progress (done of total) and " +
      `error; until it succeeds, reads show the previous amounts. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: IdParams,
    output: JobSchema,
    annotations: READS,
    run: (ctx, { id }) => getJob(ctx, id),
  }),
];
