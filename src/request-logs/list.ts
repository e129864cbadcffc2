import { type Ctx, requireScope } from "../context.js";
import { offsetOf, type Page } from "../http/pagination.js";
import * as repo from "./repository.js";
import type { ListRequestLogsQuery, RequestLog } from "./schema.js";
import type { RequestLogWriter } from "./writer.js";

export async function listRequestLogs(
  ctx: Ctx,
  query: ListRequestLogsQuery,
  writer: RequestLogWriter,
): Promise<Page<RequestLog>> {
  requireScope(ctx, "admin");
  await writer.flush();
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listRequestLogs(ctx.db, query, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}
