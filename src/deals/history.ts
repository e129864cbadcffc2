import { visibleUserIds } from "../access/index.js";
import { listDealAuditEvents } from "../audit/repository.js";
import type { AuditEvent } from "../audit/schema.js";
import type { Ctx } from "../context.js";
import { offsetOf, type Page, type PageQuery } from "../http/pagination.js";
import { getDeal } from "./read.js";

/**
 * A deal's history from the audit trail, for whoever sees the deal (GET /audit-events is admin-only):
 * the deal's events, its disputes' and its visible lines'. A deal the caller does not see → 404.
 */
export async function dealHistory(ctx: Ctx, dealId: string, query: PageQuery): Promise<Page<AuditEvent>> {
  await getDeal(ctx, dealId);
  const { limit, offset } = offsetOf(query);
  const visible = await visibleUserIds(ctx);
  const { rows, total } = await listDealAuditEvents(ctx.db, dealId, visible, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}
