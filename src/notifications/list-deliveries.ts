import { type Ctx, requireScope } from "../context.js";
import { offsetOf, type Page } from "../http/pagination.js";
import * as repo from "./repository.js";
import type { ListNotificationDeliveriesQuery, NotificationDelivery } from "./schema.js";

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** `GET /notifications/deliveries`: the delivery log, newest first (admins). Never a token. */
export async function listNotificationDeliveries(
  ctx: Ctx,
  query: ListNotificationDeliveriesQuery,
): Promise<Page<NotificationDelivery>> {
  requireScope(ctx, "admin");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listDeliveries(ctx.db, query, limit, offset);
  return {
    data: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      user_id: r.user_id,
      event_id: r.event_id,
      to: r.to_address,
      status: r.status,
      attempt_count: r.attempt_count,
      next_attempt_at: r.status === "pending" ? iso(r.next_attempt_at) : null,
      last_error: r.last_error,
      sent_at: iso(r.sent_at),
      created_at: iso(r.created_at)!,
    })),
    meta: { page: query.page, per_page: query.per_page, total },
  };
}
