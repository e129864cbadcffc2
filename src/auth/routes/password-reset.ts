import type { FastifyRequest } from "fastify";
import { makeCtx, OWNER } from "../../context.js";
import type { App } from "../../http/types.js";
import type { NotificationSettings } from "../../notifications/index.js";
import { tooManyRequests } from "../../rate-limit/limiter.js";
import { type AnswerFloor, answerNoSoonerThan, RESET_ANSWER_FLOOR } from "../answer-floor.js";
import {
  ConfirmPasswordResetBody,
  confirmPasswordReset,
  PASSWORD_RESET_ACCEPTED,
  PasswordResetAccepted,
  PasswordResetBody,
  RESETS_PER_IP,
  requestPasswordReset,
} from "../password-reset.js";
import { SessionBody } from "../sign-in.js";
import { answerLink, type LinkRouteDeps } from "./link-sign-in.js";

const tags = ["Sign-in"];

export interface PasswordResetDeps extends LinkRouteDeps {
  mail?: NotificationSettings | undefined;
  /** Tests only: the reset request's answer floor with a clock and timer of the test's (RESET_ANSWER_FLOOR). */
  answerFloor?: AnswerFloor | undefined;
}

/** `POST /auth/password-reset` and `POST /auth/password-reset/confirm` (docs/notifications.md). */
export function passwordResetRoutes(app: App, deps: PasswordResetDeps): void {
  const floor = deps.answerFloor ?? RESET_ANSWER_FLOOR;
  const arrived = new WeakMap<FastifyRequest, number>();
  app.route({
    method: "POST",
    url: "/auth/password-reset",
    config: { public: true, signIn: true },
    schema: {
      tags,
      summary: "Ask for a password reset link",
      operationId: "requestPasswordReset",
      description:
        "Public. Always 202 with the same body, at least 250 ms after arrival, whether an account uses the email or not. For an active account, when email is configured (CTS_SMTP_URL), a link `{CTS_PUBLIC_URL}/reset-password#<token>` is emailed: one use, 1 hour, only the token's SHA-256 stored; an earlier unused link stops working. At most 3 messages per email an hour (more: the same 202, nothing sent); more than 10 requests from one address in 15 minutes → 429 with Retry-After.",
      body: PasswordResetBody,
      response: { 202: PasswordResetAccepted },
    },
    onRequest: (req, _reply, done) => {
      arrived.set(req, floor.now());
      done();
    },
    handler: async (req, reply) => {
      const now = deps.clock();
      const perIp = await deps.rateLimits.hit(
        `reset-ip:${req.ip}`,
        RESETS_PER_IP.limit,
        RESETS_PER_IP.windowMs,
        now.getTime(),
      );
      if (!perIp.allowed) {
        throw tooManyRequests(perIp.resetSeconds, "Too many password reset requests from this address; retry later");
      }
      const ctx = makeCtx(deps.db, deps.env, OWNER, req.id, now);
      await requestPasswordReset(ctx, req.body, { mail: deps.mail, limits: deps.rateLimits });
      // A known email queues a reset, an unknown one nothing: both answer at the floor, not when done.
      await answerNoSoonerThan(floor, arrived.get(req) ?? floor.now());
      return reply.code(202).send(PASSWORD_RESET_ACCEPTED);
    },
  });

  app.route({
    method: "POST",
    url: "/auth/password-reset/confirm",
    config: { public: true, signIn: true },
    schema: {
      tags,
      summary: "Set a new password with a reset link",
      operationId: "confirmPasswordReset",
      description:
        "No key: the token is the credential. Sets the password (the rules of POST /auth/invitations/accept → 422 with `details`), ends every session of the user and signs in (200, `Set-Cookie`, as login). Token unknown, used, replaced or expired → 404 `not_found` saying which, counted as a failed authentication of the IP (30 a minute, then 429). User inactive → 409.",
      body: ConfirmPasswordResetBody,
      response: { 200: SessionBody },
    },
    handler: (req, reply) =>
      answerLink(deps, req, reply, (ctx, how) => confirmPasswordReset(ctx, reply, req.body, how)),
  });
}
