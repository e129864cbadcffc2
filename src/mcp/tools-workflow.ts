import { Commission, CreateAdjustmentBody } from "../commissions/index.js";
import {
  approveDeal,
  createAdjustment,
  DealDetail,
  markDealPaid,
  openDispute,
  RejectDealBody,
  rejectDeal,
  resolveDispute,
} from "../deals/index.js";
import {
  Dispute,
  getDispute,
  ListDisputesQuery,
  listDisputes,
  OpenDisputeBody,
  ResolveDisputeBody,
} from "../disputes/index.js";
import { IdParams } from "../http/input-fields.js";
import { listOf } from "../http/pagination.js";
import { CREATES, defineTool, type McpTool, READ_ONLY, READS, TRANSITIONS, withId } from "./tool.js";

/**
 * The deal workflow's tools (API.md §9): admin transitions, disputes (read; open: write; resolve: admin)
 * and manual adjustments (admin).
 */
export const WORKFLOW_TOOLS: readonly McpTool[] = [
  defineTool({
    name: "approve_deal",
    title: "Approve a deal",
    description:
      "Approves a pending deal by id (POST /api/v1/deals/{id}/approve): approving locks the deal's commission lines " +
      "so no later recalculation changes them, and stamps approved_at. It does not pay anyone and never edits the " +
      "deal's fields; any status but pending is refused (invalid_transition), so a retry changes nothing.",
    scope: "admin",
    access: "admin",
    input: IdParams,
    output: DealDetail,
    annotations: TRANSITIONS,
    run: (ctx, { id }) => approveDeal(ctx, id),
  }),
  defineTool({
    name: "reject_deal",
    title: "Reject a deal",
    description:
      "Rejects a pending deal by id with a reason (POST /api/v1/deals/{id}/reject): its commission lines are voided " +
      "(out of every total and attainment) and the later deals of the same periods are recalculated. It never " +
      "deletes the deal; editing it later (update_deal) resubmits it. Any status but pending is refused.",
    scope: "admin",
    access: "admin",
    input: withId(RejectDealBody),
    output: DealDetail,
    annotations: { ...TRANSITIONS, destructiveHint: true },
    run: (ctx, { id, reason }) => rejectDeal(ctx, id, reason),
  }),
  defineTool({
    name: "mark_deal_paid",
    title: "Mark a deal paid",
    description:
      "Records that an approved deal's commissions were paid (POST /api/v1/deals/{id}/mark-paid): paid_at is set " +
      "and its approved lines become paid. It moves no money and contacts no payroll system; any status but " +
      "approved is refused (invalid_transition), so a retry changes nothing.",
    scope: "admin",
    access: "admin",
    input: IdParams,
    output: DealDetail,
    annotations: TRANSITIONS,
    run: (ctx, { id }) => markDealPaid(ctx, id),
  }),
  defineTool({
    name: "list_disputes",
    title: "List disputes",
    description:
      "Lists disputes, newest first, as GET /api/v1/disputes does: filters status (open, resolved; one or " +
      `comma-separated) and deal_id; page, per_page. Each has the id resolve_dispute takes. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: ListDisputesQuery,
    output: listOf(Dispute),
    annotations: READS,
    run: (ctx, args) => listDisputes(ctx, args),
  }),
  defineTool({
    name: "get_dispute",
    title: "Get a dispute",
    description: `Returns one dispute by id (dsp_…): its deal, reason, expected amount, status and resolution. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: IdParams,
    output: Dispute,
    annotations: READS,
    run: (ctx, { id }) => getDispute(ctx, id),
  }),
  defineTool({
    name: "open_dispute",
    title: "Open a dispute on a deal",
    description:
      "Disputes an approved deal by id (POST /api/v1/deals/{id}/disputes): reason (wrong_amount, wrong_deal_type, " +
      "missing_tier, wrong_attribution, spiff_missing, other), optional description and expected_amount (the total " +
      "you expect). The deal becomes disputed until an admin resolves it. It changes no amount and pays nothing.",
    scope: "write",
    access: "write",
    input: withId(OpenDisputeBody),
    output: Dispute,
    annotations: CREATES,
    run: (ctx, { id, ...body }) => openDispute(ctx, id, body),
  }),
  defineTool({
    name: "resolve_dispute",
    title: "Resolve a dispute",
    description:
      "Resolves an open dispute by id (POST /api/v1/disputes/{id}/resolve): outcome approved (resolved_amount " +
      "defaults to expected_amount), partially_approved (resolved_amount required) or denied; an amount change adds " +
      "an adjustment line (to the opener of a rep's or manager's dispute, amount_scope user; else to the deal's owner) " +
      "and the deal returns to approved. It never pays anyone.",
    scope: "admin",
    access: "admin",
    input: withId(ResolveDisputeBody),
    output: Dispute,
    annotations: { ...TRANSITIONS, destructiveHint: true },
    run: (ctx, { id, ...body }) => resolveDispute(ctx, id, body),
  }),
  defineTool({
    name: "create_adjustment",
    title: "Create a commission adjustment",
    description:
      "Adds a manual adjustment line to a deal (POST /api/v1/commissions/adjustments): deal_id, user_id (the deal's " +
      "owner or a credited user), a signed amount (negative claws back), a reason, optional period and currency " +
      "(default: the user's plan line's on the deal, else the deal's). The line is " +
      "approved and locked and counts in the deal's total_commission, never in attainment or caps. It pays no one " +
      "by itself; a rejected deal is refused (invalid_transition). Each call adds another line.",
    scope: "admin",
    access: "admin",
    input: CreateAdjustmentBody,
    output: Commission,
    annotations: CREATES,
    run: (ctx, body) => createAdjustment(ctx, body),
  }),
];
