import type { Ctx, Tx } from "../context.js";
import { enqueueMessage, type NotificationSettings } from "../notifications/index.js";
import { newRequests } from "./repository.js";

/**
 * Emails the people a plan write just asked to acknowledge (an assignment: `userId`; a new version:
 * everyone assigned), in the write's transaction: one message per request and person, none without email
 * configured or to someone who turned `plan_acknowledgement` off. Call it after the write.
 */
export async function askToAcknowledge(
  tx: Tx,
  ctx: Ctx,
  mail: NotificationSettings | undefined,
  which: { planId: string; userId?: string },
): Promise<void> {
  if (!mail) return;
  for (const request of await newRequests(tx, { planId: which.planId, userId: which.userId ?? null }, ctx.now)) {
    await enqueueMessage(tx, ctx, mail, {
      kind: "plan_acknowledgement",
      sourceId: request.id,
      user: { id: request.user_id, email: request.email, name: request.name },
      data: { acknowledgement_id: request.id, plan_name: request.plan_name, plan_version: request.plan_version },
    });
  }
}
