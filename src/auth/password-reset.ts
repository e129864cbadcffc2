import type { FastifyReply } from "fastify";
import { z } from "zod";
import { audit } from "../audit/record.js";
import { type Ctx, type Tx, withTransaction } from "../context.js";
import { AppError } from "../errors.js";
import { newId } from "../ids.js";
import { enqueueMessage, type NotificationSettings } from "../notifications/index.js";
import type { RateLimitStore } from "../rate-limit/limiter.js";
import { newToken, sha256Hex } from "../sessions/index.js";
import { type LinkSignIn, type PasswordLink, setPasswordByLink } from "./password-link.js";
import * as repo from "./password-resets-repository.js";
import type { SessionBody } from "./sign-in.js";

/** A reset link works once, for one hour. */
export const RESET_TTL_MS = 3_600_000;
/** At most 3 reset messages per email an hour (more: the same 202, nothing sent). */
export const RESETS_PER_EMAIL = { limit: 3, windowMs: 3_600_000 };
/** At most 10 reset requests per client address in 15 minutes (more: 429). */
export const RESETS_PER_IP = { limit: 10, windowMs: 15 * 60_000 };

export const PasswordResetBody = z.strictObject({
  email: z.string().trim().min(3).max(320).describe("The account's email; compared case-insensitively."),
});
export type PasswordResetBody = z.infer<typeof PasswordResetBody>;

export const PasswordResetAccepted = z.object({ message: z.string() }).meta({ id: "PasswordResetAccepted" });

export const PASSWORD_RESET_ACCEPTED = {
  message: "If an active account uses this email, a link to choose a new password is on its way; it works for 1 hour.",
};

export const ConfirmPasswordResetBody = z.strictObject({
  token: z.string().min(1).max(512).describe("The part of the reset link after `#`."),
  password: z
    .string()
    .describe("12-256 characters, not containing the email, not a common password, zxcvbn strength 3 of 4 or more."),
});
export type ConfirmPasswordResetBody = z.infer<typeof ConfirmPasswordResetBody>;

/**
 * `POST /auth/password-reset`: whatever the email, the same 202 after the same work (one locked read):
 * for an active account with email configured and under its hourly limit, a one-use token whose SHA-256
 * alone is stored and a message queued in the same transaction. The token is never in a log or the audit.
 */
export async function requestPasswordReset(
  ctx: Ctx,
  body: PasswordResetBody,
  how: { mail: NotificationSettings | undefined; limits: RateLimitStore },
): Promise<void> {
  const email = body.email.toLowerCase();
  const perEmail = await how.limits.hit(
    `reset:${email}`,
    RESETS_PER_EMAIL.limit,
    RESETS_PER_EMAIL.windowMs,
    ctx.now.getTime(),
  );
  await withTransaction(ctx, async (tx: Tx) => {
    const user = await repo.lockActiveUserByEmail(tx, email);
    if (!user || !how.mail || !perEmail.allowed) return;
    const token = newToken();
    const id = newId("pwr", ctx.now.getTime());
    await repo.replaceResets(tx, {
      id,
      user_id: user.id,
      token_hash: sha256Hex(token),
      expires_at: new Date(ctx.now.getTime() + RESET_TTL_MS),
      created_at: ctx.now,
    });
    await enqueueMessage(tx, ctx, how.mail, { kind: "password_reset", sourceId: id, user, secret: token });
    await audit(tx, ctx, {
      action: "user.password_reset_request",
      resource: "user",
      resourceId: user.id,
      after: { id },
    });
  });
}

function refusal(reset: repo.PasswordResetRow | undefined, now: Date): AppError | undefined {
  const again = "ask for a new link with “Forgot password?”";
  if (!reset) return new AppError("not_found", `Reset link not found: it is wrong or incomplete; ${again}`);
  if (reset.used_at) return new AppError("not_found", `This reset link was already used or replaced; ${again}`);
  if (new Date(reset.expires_at) <= now) return new AppError("not_found", `This reset link expired; ${again}`);
  return undefined;
}

/** A reset as a link that sets the password (password-link.ts). */
const RESET: PasswordLink<repo.PasswordResetRow> = {
  lock: repo.lockResetByTokenHash,
  refusal,
  inactive: (userId) => `User ${userId} is inactive; an admin must reactivate them first`,
  markUsed: repo.markResetUsed,
  audited: (_reset, ended) => ({ action: "user.password_reset", after: { sessions_ended: ended } }),
  method: "password",
};

/**
 * `POST /auth/password-reset/confirm`: sets the password and signs in (password-link.ts); a token
 * unknown, used, replaced or expired → 404, an inactive user → 409; audited `user.password_reset`.
 */
export function confirmPasswordReset(
  ctx: Ctx,
  reply: FastifyReply,
  body: ConfirmPasswordResetBody,
  how: LinkSignIn,
): Promise<SessionBody> {
  return setPasswordByLink(ctx, reply, body, how, RESET);
}
