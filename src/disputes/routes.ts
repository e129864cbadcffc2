import type { Ctx } from "../context.js";
import { declareRoutes, type RecordRef } from "../declare-routes.js";
import { IdParams } from "../http/input-fields.js";
import type { App } from "../http/types.js";
import { listDisputes } from "./list.js";
import { getDispute } from "./read.js";
import { Dispute, ListDisputesQuery, ResolveDisputeBody } from "./schema.js";

const DISPUTE: RecordRef = { path: "/disputes/:id", schema: Dispute };

const LIST = "Newest first. Filters status (open, resolved; one or comma-separated) and deal_id.";

/** The reads; opening (POST /deals/{id}/disputes) changes a deal, so it lives with the deals. */
export function disputeRoutes(app: App): void {
  const disputes = declareRoutes(app, ["Disputes"]).records({
    path: "/disputes",
    scope: "read",
    record: Dispute,
    read: getDispute,
  });
  disputes.list({ summary: "List disputes", description: LIST, query: ListDisputesQuery }, ({ ctx, query }) =>
    listDisputes(ctx, query),
  );
  disputes.get({ summary: "Get a dispute" });
}

/**
 * disputed → approved (API.md §4 "Deal states"). Resolving changes the deal, so its service lives in
 * deals/ (deals/resolve-dispute.ts, a floor above): the deals feature passes it in when it declares its routes.
 */
export function resolveDisputeRoutes(
  app: App,
  resolveDispute: (ctx: Ctx, id: string, input: ResolveDisputeBody) => Promise<Dispute>,
): void {
  declareRoutes(app, ["Disputes"]).post(
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
    ({ ctx, params, body }) => resolveDispute(ctx, params.id, body),
  );
}
