import { MAY } from "../access/index.js";
import { pageReply } from "../http/list-reply.js";
import { listOf } from "../http/pagination.js";
import type { App } from "../http/types.js";
import { listAuditEvents } from "./list.js";
import { AuditEvent, ListAuditEventsQuery } from "./schema.js";

export function auditRoutes(app: App): void {
  app.get(
    "/audit-events",
    {
      config: { scope: "admin", roles: MAY.admin },
      schema: {
        tags: ["Audit"],
        summary: "List audit events",
        description:
          "Every change: who (key id and name, or owner-cli), what (action, resource, id), before/after, request id, when. Newest first (created_at desc, id desc). Never updated or deleted.",
        querystring: ListAuditEventsQuery,
        response: { 200: listOf(AuditEvent) },
      },
    },
    async (req, reply) => pageReply(req, reply, await listAuditEvents(req.ctx, req.query)),
  );
}
