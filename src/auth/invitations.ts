import type { FastifyReply } from "fastify";
import { z } from "zod";
import { audit } from "../audit/record.js";
import { type Ctx, requireScope, withTransaction } from "../context.js";
import { AppError, conflict, notFound } from "../errors.js";
import { Timestamp } from "../http/date-fields.js";
import { newId } from "../ids.js";
import { enqueueMessage, type NotificationSettings } from "../notifications/index.js";
import { newToken, sha256Hex } from "../sessions/index.js";
import { lockUserWithPassword } from "../users/index.js";
import * as repo from "./invitations-repository.js";
import { type LinkSignIn, type PasswordLink, setPasswordByLink } from "./password-link.js";
import type { SessionBody } from "./sign-in.js";

/** An invitation link works for 72 hours (API.md §11). */
export const INVITATION_TTL_HOURS = 72;

export const CreatedInvitation = z
  .object({
    id: z.string().describe("inv_…"),
    user_id: z.string(),
    url: z
      .string()
      .describe("`{origin}/invite#<token>`: shown only in this response, never stored (only the token's SHA-256 is)."),
    expires_at: Timestamp.describe("72 hours after creation."),
  })
  .meta({ id: "Invitation" });
export type CreatedInvitation = z.infer<typeof CreatedInvitation>;

export const AcceptInvitationBody = z.strictObject({
  token: z.string().min(1).max(512).describe("The part of the invitation URL after `#`."),
  password: z
    .string()
    .describe("12-256 characters, not containing the email, not a common password, zxcvbn strength 3 of 4 or more."),
});
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBody>;

function inactive(userId: string): AppError {
  return conflict(`User ${userId} is inactive; an admin must set "active": true before they can be invited`);
}

/**
 * A new one-use invitation for the user, valid 72 h; their older open invitations are cancelled. Only
 * the token's SHA-256 is stored; the URL (with the token) is in the return value alone, never in the
 * audit row. Unknown user → 404, inactive user → 409.
 */
export async function createInvitation(
  ctx: Ctx,
  userId: string,
  origin: string,
  mail?: NotificationSettings,
): Promise<CreatedInvitation> {
  requireScope(ctx, "admin");
  return withTransaction(ctx, async (tx) => {
    const found = await lockUserWithPassword(tx, userId);
    if (!found) throw notFound("User", userId);
    if (!found.user.active) throw inactive(userId);
    const cancelled = await repo.cancelOpenInvitations(tx, userId, ctx.now);
    const token = newToken();
    const row = await repo.insertInvitation(tx, {
      id: newId("inv", ctx.now.getTime()),
      user_id: userId,
      token_hash: sha256Hex(token),
      expires_at: new Date(ctx.now.getTime() + INVITATION_TTL_HOURS * 3_600_000),
      created_at: ctx.now,
    });
    const expiresAt = new Date(row.expires_at).toISOString();
    await enqueueMessage(tx, ctx, mail, { kind: "invitation", sourceId: row.id, user: found.user, secret: token });
    await audit(tx, ctx, {
      action: "invitation.create",
      resource: "user",
      resourceId: userId,
      after: { invitation_id: row.id, expires_at: expiresAt, cancelled_invitation_ids: cancelled },
    });
    return { id: row.id, user_id: userId, url: `${origin}/invite#${token}`, expires_at: expiresAt };
  });
}

/** Why a token no longer opens anything: 404 `not_found`, saying which so the person knows what to do. */
function refusal(invitation: repo.InvitationRow | undefined, now: Date): AppError | undefined {
  const ask = "ask an admin for a new invitation";
  if (!invitation) return new AppError("not_found", `Invitation not found: the link is wrong or incomplete; ${ask}`);
  if (invitation.used_at) return new AppError("not_found", `This invitation was already used; sign in, or ${ask}`);
  if (invitation.cancelled_at) {
    return new AppError("not_found", "This invitation was replaced by a newer one; use the latest invitation link");
  }
  const expiresAt = new Date(invitation.expires_at);
  if (expiresAt <= now) {
    return new AppError("not_found", `This invitation expired at ${expiresAt.toISOString()}; ${ask}`);
  }
  return undefined;
}

/** An invitation as a link that sets the password (password-link.ts). */
const INVITATION: PasswordLink<repo.InvitationRow> = {
  lock: repo.lockInvitationByTokenHash,
  refusal,
  inactive: (userId) => `User ${userId} is inactive; an admin must reactivate them before this invitation can be used`,
  markUsed: repo.markInvitationUsed,
  audited: (invitation, ended) => ({
    action: "invitation.accept",
    after: { invitation_id: invitation.id, sessions_ended: ended },
  }),
  method: "invitation",
};

/**
 * `POST /auth/invitations/accept`: sets the password and signs in (password-link.ts); an invitation
 * unknown, used, cancelled or expired → 404, an inactive user → 409; audited `invitation.accept`.
 */
export function acceptInvitation(
  ctx: Ctx,
  reply: FastifyReply,
  body: AcceptInvitationBody,
  how: LinkSignIn,
): Promise<SessionBody> {
  return setPasswordByLink(ctx, reply, body, how, INVITATION);
}
