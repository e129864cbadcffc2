import type { FastifyReply } from "fastify";
import { z } from "zod";
import { audit } from "../audit/record.js";
import { type Ctx, type Tx, type UserActor, withTransaction } from "../context.js";
import { Timestamp } from "../http/date-fields.js";
import { type SessionSettings, sessionCookie, startSession } from "../sessions/index.js";
import { User } from "../users/index.js";

/** What a sign-in (and `GET /auth/session`) answers: the person, the CSRF token for unsafe methods, the expiry. */
export const SessionBody = z
  .object({
    user: User,
    csrf_token: z.string().describe("Send it as X-CSRF-Token with every POST, PUT, PATCH and DELETE of this session."),
    expires_at: Timestamp.describe(
      "When the session ends if left unused (idle timeout, or the absolute one if sooner).",
    ),
  })
  .meta({ id: "Session" });
export type SessionBody = z.infer<typeof SessionBody>;

/** How a person proved who they are; recorded on the sign-in's audit row. */
export type SignInMethod = "password" | "invitation" | "oidc";

/**
 * Starts a new session for `user` (a new id at every sign-in), sets its cookie on `reply` (Secure
 * when the origin is https), and writes the `session.login` audit row in the same transaction.
 * `ctx` is the caller's: its db (or transaction), clock and request id; its actor becomes the user.
 */
export async function signIn(
  ctx: Ctx,
  reply: FastifyReply,
  user: User,
  how: { method: SignInMethod; settings: SessionSettings; secure: boolean },
): Promise<SessionBody> {
  const session = await withTransaction(ctx, async (tx: Tx) => {
    const started = await startSession(tx, user.id, ctx.now, how.settings);
    const actor: UserActor = {
      type: "user",
      userId: user.id,
      name: user.name,
      role: user.role,
      sessionId: started.sessionId,
    };
    await audit(
      tx,
      { ...ctx, actor },
      {
        action: "session.login",
        resource: "user",
        resourceId: user.id,
        after: { method: how.method, session_id: started.sessionId },
      },
    );
    return started;
  });
  reply.header("Set-Cookie", sessionCookie(session.token, session.endsAt, how.secure));
  return { user, csrf_token: session.csrfToken, expires_at: session.expiresAt.toISOString() };
}
