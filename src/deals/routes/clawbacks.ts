import { MAY } from "../../access/index.js";
import { declareRoutes, type RecordRef } from "../../declare-routes.js";
import { IdParams } from "../../http/input-fields.js";
import type { App } from "../../http/types.js";
import { cancelDeal } from "../cancel.js";
import { previewClawbacks } from "../clawback-preview.js";
import { getRefund, listRefunds } from "../list-refunds.js";
import { refundDeal } from "../refund.js";
import {
  CancelDealBody,
  ClawbackPreview,
  ClawbackPreviewBody,
  DealCancelled,
  DealDetail,
  ListRefundsQuery,
  Refund,
  RefundBody,
} from "../schema.js";

const DEAL: RecordRef = { path: "/deals/:id", schema: DealDetail };
const REFUND: RecordRef = { path: "/refunds/:id", schema: Refund };

const CLAWBACK =
  "Per person and plan with lines on the deal, E = their non-void plan, SPIFF and override lines from that plan (a " +
  "SPIFF line counts under the plan of their plan line on the deal; none: never clawed back). The clawed lines' plan " +
  "version's clawback policy decides: an event at most window_days after close_date (that day included) writes one " +
  "approved, locked clawback line = −(round(E × percent/100 × factor) − what was clawed back already), none when that " +
  "is ≤ 0. Clawback lines count in totals (total_commission is the deal's net), never in attainment or caps.";

/** API.md §14: cancel, refund, the refunds of a deal, and what either would claw back. */
export function clawbackRoutes(app: App): void {
  const route = declareRoutes(app, ["Deals"]);
  route.post(
    {
      path: "/deals/:id/cancel",
      scope: "admin",
      summary: "Cancel a deal",
      description:
        "approved or paid → cancelled (final; only adjustments may follow), with reason and effective_date (≥ " +
        "close_date, else 422). Factor: 1 with proration none; unserved contract days ÷ contract days with " +
        `unserved_days (1 without contract dates). ${CLAWBACK} clawback_summary says, per person and plan, what was ` +
        "written or why nothing was. pending → 409 invalid_transition (reject it instead); disputed → 409 (resolve " +
        "the dispute first); any other status → 409. Of concurrent transitions on one deal exactly one wins.",
      params: IdParams,
      body: CancelDealBody,
      response: DealCancelled,
      represents: DEAL,
    },
    ({ ctx, params, body }) => cancelDeal(ctx, params.id, body),
  );

  route.create(
    {
      path: "/deals/:id/refunds",
      scope: "admin",
      summary: "Refund a deal",
      description:
        "Records a refund of an approved or paid deal (else 409 invalid_transition); its status stays. amount > 0 in " +
        "the deal's currency; all refunds together at most arr_amount (else 422 saying what is left; refunding all of " +
        "it is not a cancellation); effective_date ≥ close_date. Factor: refunds within the window so far (this one " +
        `included) ÷ arr_amount, never prorated, so repeated refunds never drift. ${CLAWBACK} The refund names the ` +
        "clawback lines it wrote. Emits deal.refunded.",
      params: IdParams,
      body: RefundBody,
      response: Refund,
      represents: REFUND,
    },
    ({ ctx, params, body }) => refundDeal(ctx, params.id, body),
  );

  declareRoutes(app, ["Deals"])
    .records({ path: "/refunds", scope: "read", record: Refund, read: getRefund })
    .get({ summary: "Get a refund", description: "For whoever sees its deal (404 otherwise)." });

  route.list(
    {
      path: "/deals/:id/refunds",
      scope: "read",
      summary: "A deal's refunds",
      description:
        "For whoever sees the deal (404 otherwise); newest first (created_at desc, id desc). A rep or manager sees " +
        "only the clawback line ids of people they see.",
      params: IdParams,
      query: ListRefundsQuery,
      item: Refund,
    },
    ({ ctx, params, query }) => listRefunds(ctx, params.id, query),
  );

  route.post(
    {
      path: "/deals/:id/clawback-preview",
      scope: "read",
      roles: MAY.previewClawbacks,
      summary: "Preview a cancellation's or a refund's clawbacks",
      operationId: "previewClawbacks",
      description:
        "What POST /deals/{id}/cancel (type cancel) or POST /deals/{id}/refunds (type refund, with amount) would " +
        "claw back now, computed by the same code with the same checks (422, then 409 for a status they refuse); " +
        "nothing is written. lines are the clawback lines as the action would write them (a refund's trigger has " +
        "refund_id null). Keys with read scope; people: admins and finance.",
      params: IdParams,
      body: ClawbackPreviewBody,
      response: ClawbackPreview,
    },
    ({ ctx, params, body }) => previewClawbacks(ctx, params.id, body),
  );
}
