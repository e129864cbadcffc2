import type { FastifyContextConfig } from "fastify";
import { type Ctx, roleRefusal, type UserActor } from "../context.js";

/**
 * May this person call this route (API.md §11)? Their role must be among the route's `roles` (none
 * declared → refused: default deny). Before refusing a route under a record, the record is read as
 * them: one they do not see is 404 (its existence is never revealed), one they see is 403 naming the
 * role needed.
 */
export async function requireRouteRole(
  ctx: Ctx,
  actor: UserActor,
  config: FastifyContextConfig | undefined,
  params: unknown,
): Promise<void> {
  const roles = config?.roles ?? [];
  if (roles.includes(actor.role)) return;
  if (config?.visibleRecord) await config.visibleRecord(ctx, (params ?? {}) as Record<string, string>);
  throw roleRefusal(roles, actor.role);
}
