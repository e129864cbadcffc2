import { MAY } from "../access/index.js";
import { declareRoutes, type RecordRef } from "../declare-routes.js";
import { Dispute, OpenDisputeBody, ResolveDisputeBody } from "../disputes/index.js";
import { IdParams } from "../http/input-fields.js";
import type { App } from "../http/types.js";
import * as service from "./service-disputes.js";

const DISPUTE: RecordRef = { path: "/disputes/:id", schema: Dispute };

/** approved → disputed → approved (API.md §4 "Deal states"). */
export function dealDisputeRoutes(app: App): void {
  const route = declareRoutes(app, ["Disputes"]);
  route.create(
    {
      path: "/deals/:id/disputes",
      scope: "write",
      roles: MAY.openDispute,
      summary: "Open a dispute on a deal",
      description:
        "approved → disputed: opens a dispute (reason required; description and expected_amount, the total the " +
        "disputer expects, optional). Any other deal status → 409 invalid_transition naming it.",
      params: IdParams,
      body: OpenDisputeBody,
      response: Dispute,
      represents: DISPUTE,
    },
    ({ ctx, params, body }) => service.openDispute(ctx, params.id, body),
  );

  route.post(
    {
      path: "/disputes/:id/resolve",
      scope: "admin",
      summary: "Resolve a dispute",
      description:
        "disputed → approved. outcome approved (resolved_amount defaults to expected_amount), partially_approved " +
        "(resolved_amount required) or denied (no amount change). When the accepted total differs from the current " +
        "one (amount_scope), an approved, locked adjustment line for the difference goes to the opener (user) or the " +
        "owner (deal). A resolved dispute → 409 invalid_transition.",
      params: IdParams,
      body: ResolveDisputeBody,
      response: Dispute,
      represents: DISPUTE,
    },
    ({ ctx, params, body }) => service.resolveDispute(ctx, params.id, body),
  );
}
