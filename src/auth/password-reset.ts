import type { FastifyReply } from "fastify";
import { z } from "zod";
import { audit } from "../audit/record.js";
import { type Ctx, type Tx, type UserActor, withTransaction } from "../context.js";
import { AppError, conflict } from "../errors.js";
import { newId } from "../ids.js";
import { enqueueMessage, type NotificationSettings } from "../notifications/index.js";
import { checkPassword, hashPassword } from "../passwords/index.js";
import type { RateLimitStore } from "../rate-limit/limiter.js";
import { endSessionsOf, newToken, type SessionSettings, sha256Hex } from "../sessions/index.js";
import { lockUserWithPassword, setPasswordHash } from "../users/index.js";
import * as repo from "./password-resets-repository.js";
import { type SessionBody, signIn } from "./sign-in.js";

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

/**
 * `POST /auth/password-reset/confirm`: in one transaction, checks the password's rules (422), consumes
 * the token (unknown, used, replaced or expired → 404), stores the argon2id hash, ends every session of
 * the user, audits `user.password_reset` and signs in.
 */
export async function confirmPasswordReset(
  ctx: Ctx,
  reply: FastifyReply,
  body: ConfirmPasswordResetBody,
  how: { settings: SessionSettings; secure: boolean; onRefusedToken?: () => void },
): Promise<SessionBody> {
  return withTransaction(ctx, async (tx: Tx) => {
    const reset = await repo.lockResetByTokenHash(tx, sha256Hex(body.token));
    const holder = reset ? await lockUserWithPassword(tx, reset.user_id) : undefined;
    const refused = refusal(reset, ctx.now);
    if (refused) how.onRefusedToken?.();
    checkPassword(body.password, holder ? { email: holder.user.email, name: holder.user.name } : null);
    if (refused || !reset || !holder) throw refused;
    const { user } = holder;
    if (!user.active) throw conflict(`User ${user.id} is inactive; an admin must reactivate them first`);
    await repo.markResetUsed(tx, reset.id, ctx.now);
    await setPasswordHash(tx, user.id, await hashPassword(body.password), ctx.now);
    const ended = await endSessionsOf(tx, user.id, ctx.now, "password_change");
    const actor: UserActor = { type: "user", userId: user.id, name: user.name, role: user.role, sessionId: "" };
    await audit(
      tx,
      { ...ctx, actor },
      { action: "user.password_reset", resource: "user", resourceId: user.id, after: { sessions_ended: ended } },
    );
    return signIn({ ...ctx, db: tx }, reply, user, { method: "password", settings: how.settings, secure: how.secure });
  });
}
