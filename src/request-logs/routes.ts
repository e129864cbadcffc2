import { MAY } from "../access/index.js";
import { pageReply } from "../http/list-reply.js";
import { listOf } from "../http/pagination.js";
import type { App } from "../http/types.js";
import { listRequestLogs } from "./list.js";
import { ListRequestLogsQuery, RequestLog } from "./schema.js";
import type { RequestLogWriter } from "./writer.js";

export function requestLogRoutes(app: App, writer: RequestLogWriter): void {
  app.get(
    "/request-logs",
    {
      config: { scope: "admin", roles: MAY.admin },
      schema: {
        tags: ["Request logs"],
        summary: "List logged API requests",
        operationId: "listRequestLogs",
        description: "Every /api/v1 and /mcp request, newest first (created_at desc, id desc); kept 30 days.",
        querystring: ListRequestLogsQuery,
        response: { 200: listOf(RequestLog) },
      },
    },
    async (req, reply) => pageReply(req, reply, await listRequestLogs(req.ctx, req.query, writer)),
  );
}
