import {
  CancelDealBody,
  ClawbackPreview,
  ClawbackPreviewBody,
  cancelDeal,
  DealCancelled,
  previewClawbacks,
  Refund,
  RefundBody,
  refundDeal,
} from "../deals/index.js";
import { CREATES, defineTool, type McpTool, READ_ONLY, READS, TRANSITIONS, withId } from "./tool.js";

/** API.md §14's tools: cancel and refund a deal (admin), and what either would claw back (read). */
export const CLAWBACK_TOOLS: readonly McpTool[] = [
  defineTool({
    name: "cancel_deal",
    title: "Cancel a deal",
    description:
      "Cancels an approved or paid deal by id with a reason and an effective_date on or after its close_date " +
      "(POST /api/v1/deals/{id}/cancel): final. Under each plan's clawback policy it writes approved, locked " +
      "clawback lines (negative) and answers clawback_summary, per person and plan, with what it took back or why " +
      "it took nothing. It never deletes lines or changes attainment; a pending deal is rejected instead, a " +
      "disputed one resolved first (invalid_transition). Try preview_clawbacks first.",
    scope: "admin",
    access: "admin",
    input: withId(CancelDealBody),
    output: DealCancelled,
    annotations: { ...TRANSITIONS, destructiveHint: true },
    run: (ctx, { id, ...body }) => cancelDeal(ctx, id, body),
  }),
  defineTool({
    name: "refund_deal",
    title: "Refund a deal",
    description:
      "Records a refund of an approved or paid deal by id (POST /api/v1/deals/{id}/refunds): amount (> 0; all " +
      "refunds at most arr_amount), effective_date, optional reason. The deal's status stays; clawback lines take " +
      "back the refunded share under each plan's policy and the refund names them. It moves no money itself. Each " +
      "call records another refund.",
    scope: "admin",
    access: "admin",
    input: withId(RefundBody),
    output: Refund,
    annotations: CREATES,
    run: (ctx, { id, ...body }) => refundDeal(ctx, id, body),
  }),
  defineTool({
    name: "preview_clawbacks",
    title: "Preview a deal's clawbacks",
    description:
      "What cancel_deal (type cancel) or refund_deal (type refund, with amount) would claw back from a deal by id " +
      `now (POST /api/v1/deals/{id}/clawback-preview): clawback_summary and the lines. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: withId(ClawbackPreviewBody),
    output: ClawbackPreview,
    annotations: READS,
    run: (ctx, { id, ...body }) => previewClawbacks(ctx, id, body),
  }),
];
