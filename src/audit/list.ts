import { type Ctx, requireScope } from "../context.js";
import { offsetOf, type Page } from "../http/pagination.js";
import * as repo from "./repository.js";
import type { AuditEvent, ListAuditEventsQuery } from "./schema.js";

/** Read-only: no route updates or deletes audit rows. */
export async function listAuditEvents(ctx: Ctx, query: ListAuditEventsQuery): Promise<Page<AuditEvent>> {
  requireScope(ctx, "admin");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listAuditEvents(ctx.db, query, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}
