import { MAY } from "../access/index.js";
import { declareRoutes, type RecordRef } from "../declare-routes.js";
import { EmptyBody, IdParams } from "../http/input-fields.js";
import type { App } from "../http/types.js";
import { DealDetail, RejectDealBody } from "./schema.js";
import * as workflow from "./service-workflow.js";

const DEAL: RecordRef = { path: "/deals/:id", schema: DealDetail };

const RACE = "Of concurrent transitions on one deal exactly one wins; the others get 409 invalid_transition.";

/** The admin transitions of API.md §4 "Deal states". */
export function dealWorkflowRoutes(app: App): void {
  const route = declareRoutes(app, ["Deals"]);
  route.post(
    {
      path: "/deals/:id/approve",
      scope: "admin",
      summary: "Approve a deal",
      description:
        "pending → approved: approved_at is set and the deal's lines become approved and locked (no later " +
        `recalculation changes them). Any other status → 409 invalid_transition naming it. ${RACE}`,
      params: IdParams,
      body: EmptyBody,
      response: DealDetail,
      represents: DEAL,
    },
    ({ ctx, params }) => workflow.approveDeal(ctx, params.id),
  );

  route.post(
    {
      path: "/deals/:id/reject",
      scope: "admin",
      summary: "Reject a deal",
      description:
        "pending → rejected, with the required reason: the deal's lines are voided (out of totals and attainment) " +
        "and the later pending deals of the same periods are recalculated. Editing the deal later resubmits it. " +
        `Any other status → 409 invalid_transition naming it. ${RACE}`,
      params: IdParams,
      body: RejectDealBody,
      response: DealDetail,
      represents: DEAL,
    },
    ({ ctx, params, body }) => workflow.rejectDeal(ctx, params.id, body.reason),
  );

  route.post(
    {
      path: "/deals/:id/mark-paid",
      scope: "admin",
      roles: MAY.markPaid,
      summary: "Mark a deal paid",
      description:
        "approved → paid: paid_at is set and the deal's approved lines become paid. It records a payment made " +
        `elsewhere; it moves no money. Any other status → 409 invalid_transition naming it. ${RACE}`,
      params: IdParams,
      body: EmptyBody,
      response: DealDetail,
      represents: DEAL,
    },
    ({ ctx, params }) => workflow.markDealPaid(ctx, params.id),
  );
}
