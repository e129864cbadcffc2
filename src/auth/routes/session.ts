import { z } from "zod";
import { audit } from "../../audit/record.js";
import { makeCtx, OWNER, withTransaction } from "../../context.js";
import { EmptyBody } from "../../http/input-fields.js";
import type { App } from "../../http/types.js";
import { clearedSessionCookie, endSession } from "../../sessions/index.js";
import { getUser } from "../../users/index.js";
import { LoginBody, logIn, type SignInDeps } from "../login.js";
import { SessionBody } from "../sign-in.js";

const TAGS = ["Sign-in"];

/** `POST /auth/login`, `GET /auth/session`, `POST /auth/logout` (API.md §11). */
export function sessionRoutes(app: App, deps: SignInDeps): void {
  app.post(
    "/auth/login",
    {
      config: { public: true, signIn: true },
      schema: {
        tags: TAGS,
        summary: "Sign in with email and password",
        operationId: "logIn",
        description:
          "No key needed. Sets a new `cts_session` cookie (HttpOnly, SameSite=Lax, Path=/, Secure on https); a session cookie sent along is ended. Unknown email, wrong password, inactive user or no password: the same 401 after the same work. After 10 failures for an email in 15 minutes (wrong `current_password`s of POST /auth/password included): 429 with Retry-After for that email, before any password check, until the oldest failure is 15 minutes old; exact across processes (an attempt holds one of the 10 while it is checked); failures also count toward the client IP's limit, and past it every attempt gets 429 before any check. The body is never echoed, logged or stored. An Origin other than this service's gets 403 (login CSRF).",
        body: LoginBody,
        response: { 200: SessionBody },
      },
    },
    async (req, reply) => logIn(deps, req, reply, req.body as LoginBody),
  );

  app.get(
    "/auth/session",
    {
      config: { sessionOnly: true },
      schema: {
        tags: TAGS,
        summary: "Get the current session",
        operationId: "getSession",
        description:
          "The signed-in person, the session's CSRF token and when it expires if left unused. 401 without a live session (asked with no cookie and no key, it is not a failed authentication for the address's limit: the console asks it on every signed-out page); a request with an API key (Authorization header) has no session and gets 403 `forbidden`.",
        response: { 200: SessionBody },
      },
    },
    async (req) => {
      const session = req.session!;
      const user = await getUser(makeCtx(deps.db, deps.env, OWNER, req.id, req.ctx.now), session.actor.userId);
      return { user, csrf_token: session.csrfToken, expires_at: session.expiresAt.toISOString() };
    },
  );

  app.post(
    "/auth/logout",
    {
      config: { sessionOnly: true },
      schema: {
        tags: TAGS,
        summary: "Sign out",
        operationId: "logOut",
        description:
          "Ends this session only (the person's other sessions stay) and clears the cookie; audited as session.logout. Needs X-CSRF-Token like every unsafe method of a session. A request with an API key gets 403 `forbidden`.",
        body: EmptyBody,
        response: { 204: z.null().describe("Signed out.") },
      },
    },
    async (req, reply) => {
      const { ctx } = req;
      const actor = req.session!.actor;
      await withTransaction(ctx, async (tx) => {
        await endSession(tx, actor.sessionId, ctx.now, "logout");
        await audit(tx, ctx, {
          action: "session.logout",
          resource: "user",
          resourceId: actor.userId,
          after: { session_id: actor.sessionId },
        });
      });
      reply.header("Set-Cookie", clearedSessionCookie(req.publicOrigin.startsWith("https:")));
      return reply.code(204).send(null);
    },
  );
}
