import { IdParams } from "../http/input-fields.js";
import { pageReply } from "../http/list-reply.js";
import { listOf } from "../http/pagination.js";
import type { App } from "../http/types.js";
import { Dispute, ListDisputesQuery } from "./schema.js";
import * as service from "./service.js";

const tags = ["Disputes"];

/** The reads; opening (POST /deals/{id}/disputes) and resolving change a deal, so they live with the deals. */
export function disputeRoutes(app: App): void {
  app.get(
    "/disputes",
    {
      config: { scope: "read" },
      schema: {
        tags,
        summary: "List disputes",
        description: "Newest first. Filters status (open, resolved; one or comma-separated) and deal_id.",
        querystring: ListDisputesQuery,
        response: { 200: listOf(Dispute) },
      },
    },
    async (req, reply) => pageReply(req, reply, await service.listDisputes(req.ctx, req.query)),
  );

  app.get(
    "/disputes/:id",
    {
      config: { scope: "read" },
      schema: { tags, summary: "Get a dispute", params: IdParams, response: { 200: Dispute } },
    },
    (req) => service.getDispute(req.ctx, req.params.id),
  );
}
