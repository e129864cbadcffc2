import type { Ctx, Tx } from "../context.js";
import { newId } from "../ids.js";
import { encryptSecret } from "../webhooks/index.js";
import { type NotificationKind, SECURITY_KINDS } from "./kinds.js";
import { insertDeliveries, wantsKind } from "./repository.js";
import type { NotificationSettings } from "./settings.js";

export interface DirectMessage {
  kind: NotificationKind;
  /** What caused it (an invitation, a reset, an acknowledgement): one message per cause and person. */
  sourceId: string;
  user: { id: string; email: string; name: string };
  data?: Record<string, unknown>;
  /** A token the message carries: sealed with the deployment key, erased once sent. */
  secret?: string;
}

/**
 * Queues one message in the caller's transaction: it exists exactly when the change that caused it
 * committed; the worker sends it later. Nothing is queued when email is not configured, nor (for a
 * switchable kind) to an inactive person or one who turned the kind off, as for the events' messages.
 */
export async function enqueueMessage(
  tx: Tx,
  ctx: Ctx,
  settings: NotificationSettings | undefined,
  message: DirectMessage,
): Promise<boolean> {
  if (!settings) return false;
  if (!SECURITY_KINDS.includes(message.kind) && !(await wantsKind(tx, message.user.id, message.kind))) return false;
  const inserted = await insertDeliveries(tx, [
    {
      id: newId("ntf", ctx.now.getTime()),
      dedupe_key: `${message.sourceId}:${message.user.id}:${message.kind}`,
      kind: message.kind,
      user_id: message.user.id,
      event_id: null,
      to_address: message.user.email,
      data: { name: message.user.name, ...message.data },
      secret_encrypted: message.secret ? encryptSecret(settings.secretKey, message.secret) : null,
      created_at: ctx.now,
    },
  ]);
  return inserted > 0;
}
