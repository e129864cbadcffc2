import { declareRoutes } from "../declare-routes.js";
import type { App } from "../http/types.js";
import { Dispute, ListDisputesQuery } from "./schema.js";
import * as service from "./service.js";

const LIST = "Newest first. Filters status (open, resolved; one or comma-separated) and deal_id.";

/** The reads; opening (POST /deals/{id}/disputes) and resolving change a deal, so they live with the deals. */
export function disputeRoutes(app: App): void {
  const disputes = declareRoutes(app, ["Disputes"]).records({
    path: "/disputes",
    scope: "read",
    record: Dispute,
    read: service.getDispute,
  });
  disputes.list({ summary: "List disputes", description: LIST, query: ListDisputesQuery }, ({ ctx, query }) =>
    service.listDisputes(ctx, query),
  );
  disputes.get({ summary: "Get a dispute" });
}
