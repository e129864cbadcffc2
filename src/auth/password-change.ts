import { z } from "zod";
import { audit } from "../audit/record.js";
import { type Ctx, type Tx, withTransaction } from "../context.js";
import { AppError } from "../errors.js";
import { checkPassword, hashPassword, verifyPassword } from "../passwords/index.js";
import { FAILED_LOGINS_PER_EMAIL, type RateLimitStore } from "../rate-limit/limiter.js";
import { endSessionsOf } from "../sessions/index.js";
import { emailOfUser, lockUserWithPassword, setPasswordHash } from "../users/index.js";
import { beginPasswordAttempt } from "./password-attempts.js";

export const ChangePasswordBody = z.strictObject({
  current_password: z.string().describe("The password this person signs in with now."),
  new_password: z
    .string()
    .describe("12-256 characters, not containing the email, not a common password, zxcvbn strength 3 of 4 or more."),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

const TOO_MANY = `Too many wrong passwords for this account (more than ${FAILED_LOGINS_PER_EMAIL.limit} in 15 minutes, sign-ins included); retry later`;

/**
 * `POST /auth/password`, for a signed-in person only: API keys and the owner have no password (403).
 * Checks in the order of API.md §2: the email's limit of failed password checks, shared with sign-in
 * (more than 10 in 15 minutes → 429 before any verification), then the current password (wrong → 403
 * `forbidden`, counted as a failure of the email, and this session goes on: a typo must not sign anyone
 * out), then the new one's rules (422). Then, in one transaction: the new argon2id hash, every other
 * session of the user ended (this one kept), `user.password_change`.
 */
export async function changePassword(ctx: Ctx, body: ChangePasswordBody, failures: RateLimitStore): Promise<void> {
  const { actor } = ctx;
  if (actor.type !== "user") {
    throw new AppError(
      "forbidden",
      "Changing a password needs a signed-in session (cookie); API keys and the owner have no password",
    );
  }
  // The session was resumed from this user's row this very request; it vanished only if deleted since.
  const email = await emailOfUser(ctx.db, actor.userId);
  if (email === undefined) throw new AppError("unauthorized", "The session's user no longer exists");
  const attempt = await beginPasswordAttempt(failures, email, ctx.now, TOO_MANY);
  try {
    await withTransaction(ctx, async (tx: Tx) => {
      const found = await lockUserWithPassword(tx, actor.userId);
      if (!found) throw new AppError("unauthorized", "The session's user no longer exists");
      const matches = await verifyPassword(found.passwordHash, body.current_password);
      if (!matches) {
        attempt.failed();
        throw new AppError(
          "forbidden",
          found.passwordHash === null
            ? "This account has no password yet (it signs in another way); an admin can send an invitation to set one"
            : "current_password is wrong; nothing changed",
        );
      }
      checkPassword(body.new_password, { email: found.user.email, name: found.user.name }, "new_password");
      await setPasswordHash(tx, actor.userId, await hashPassword(body.new_password), ctx.now);
      const ended = await endSessionsOf(tx, actor.userId, ctx.now, "password_change", actor.sessionId);
      await audit(tx, ctx, {
        action: "user.password_change",
        resource: "user",
        resourceId: actor.userId,
        after: { other_sessions_ended: ended },
      });
    });
  } finally {
    await attempt.end();
  }
}
