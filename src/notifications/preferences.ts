import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { AppError } from "../errors.js";
import { NOTIFICATION_KINDS, OFF_BY_DEFAULT, SECURITY_KINDS } from "./kinds.js";
import * as repo from "./repository.js";
import type { NotificationSettingsBody, UpdateNotificationsBody } from "./schema.js";

function personOf(ctx: Ctx): string {
  if (ctx.actor.type !== "user") {
    throw new AppError("forbidden", "Notification settings belong to a person: sign in (API keys receive no email)");
  }
  return ctx.actor.userId;
}

async function read(ctx: Ctx, userId: string, emailConfigured: boolean): Promise<NotificationSettingsBody> {
  const saved = await repo.preferencesOf(ctx.db, userId);
  return {
    email_configured: emailConfigured,
    kinds: NOTIFICATION_KINDS.map((kind) => {
      const switchable = !SECURITY_KINDS.includes(kind);
      const byDefault = !OFF_BY_DEFAULT.includes(kind);
      return { kind, switchable, enabled: switchable ? (saved.get(kind) ?? byDefault) : true };
    }),
  };
}

/** `GET /me/notifications`: each kind on or off for the signed-in person. */
export async function getMyNotifications(ctx: Ctx, emailConfigured: boolean): Promise<NotificationSettingsBody> {
  requireScope(ctx, "read");
  return read(ctx, personOf(ctx), emailConfigured);
}

/** `POST /me/notifications`: turns the named kinds on or off; security kinds are refused by the schema. */
export async function updateMyNotifications(
  ctx: Ctx,
  body: UpdateNotificationsBody,
  emailConfigured: boolean,
): Promise<NotificationSettingsBody> {
  requireScope(ctx, "read");
  const userId = personOf(ctx);
  return withTransaction(ctx, async (tx) => {
    for (const [kind, enabled] of Object.entries(body.kinds)) {
      if (enabled !== undefined) await repo.savePreference(tx, userId, kind, enabled);
    }
    await audit(tx, ctx, {
      action: "user.notifications_update",
      resource: "user",
      resourceId: userId,
      after: body.kinds,
    });
    return read({ ...ctx, db: tx }, userId, emailConfigured);
  });
}
