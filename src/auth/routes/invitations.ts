import { z } from "zod";
import { MAY } from "../../access/index.js";
import { EmptyBody, IdParams } from "../../http/input-fields.js";
import type { App } from "../../http/types.js";
import type { NotificationSettings } from "../../notifications/index.js";
import { getUser } from "../../users/index.js";
import { AcceptInvitationBody, acceptInvitation, CreatedInvitation, createInvitation } from "../invitations.js";
import { ChangePasswordBody, changePassword } from "../password-change.js";
import { SessionBody } from "../sign-in.js";
import { answerLink, type LinkRouteDeps } from "./link-sign-in.js";

const tags = ["Sign-in"];

export interface InvitationDeps extends LinkRouteDeps {
  /** When set, the invitation is also emailed (the link is still answered once, to copy). */
  mail?: NotificationSettings | undefined;
}

/** `POST /users/{id}/invitations`, `POST /auth/invitations/accept` and `POST /auth/password` (API.md §11). */
export function invitationRoutes(app: App, deps: InvitationDeps): void {
  app.route({
    method: "POST",
    url: "/users/:id/invitations",
    // The URL holds the token: an Idempotency-Key replay never stores or repeats it (409 instead).
    config: {
      scope: "admin",
      roles: MAY.admin,
      // A person who may not invite still learns nothing of users they do not see: 404 before 403.
      visibleRecord: (ctx, params) => getUser(ctx, params.id!),
      secretResponse: true,
    },
    schema: {
      tags,
      summary: "Invite a user",
      operationId: "createInvitation",
      description:
        "Returns `url` (`{origin}/invite#<token>`) once; only the token's SHA-256 is stored. One use, 72 hours; cancels the user's older invitations. Inactive user → 409 `conflict`; an Idempotency-Key replay → 409 (the link is never stored).",
      params: IdParams,
      body: EmptyBody,
      response: { 201: CreatedInvitation },
    },
    handler: async (req, reply) => {
      const created = await createInvitation(req.ctx, req.params.id, req.publicOrigin, deps.mail);
      return reply.code(201).send(created);
    },
  });

  app.route({
    method: "POST",
    url: "/auth/invitations/accept",
    config: { public: true, signIn: true },
    schema: {
      tags,
      summary: "Accept an invitation",
      operationId: "acceptInvitation",
      description:
        "No key: the token is the credential. Sets the password, ends the user's other sessions and signs in (200, `Set-Cookie`, as login). Password rules → 422 with `details`: 12-256 characters; not containing the email, or its part before the @ if 4+ characters long; not one of 49,233 common passwords (case-insensitive); then a zxcvbn-ts strength of at least 3 of 4 (email, name and service name count as guessable words; the first 64 characters are judged), else the detail gives the estimator's hint. Token unknown, used, replaced or expired → 404 `not_found` saying which (and a failed authentication for the IP limit of 30 a minute, then 429, also when the password's 422 answers); user inactive → 409 `conflict`. An Origin other than this service's → 403 (login CSRF).",
      body: AcceptInvitationBody,
      response: { 200: SessionBody },
    },
    handler: (req, reply) => answerLink(deps, req, reply, (ctx, how) => acceptInvitation(ctx, reply, req.body, how)),
  });

  app.route({
    method: "POST",
    url: "/auth/password",
    config: { scope: "read", sessionOnly: true },
    schema: {
      tags,
      summary: "Change your password",
      operationId: "changePassword",
      description:
        "Session only (an API key → 403: keys have no password). 204; this session goes on, the user's others end. Wrong `current_password` → 403 `forbidden` (the session stays valid), counted as a failed sign-in of your email: past 10 in 15 minutes, 429 with Retry-After before any check; `new_password` breaking a rule (see accept) → 422 with `details`.",
      body: ChangePasswordBody,
      response: { 204: z.null() },
    },
    handler: async (req, reply) => {
      await changePassword(req.ctx, req.body, deps.rateLimits);
      return reply.code(204).send(null);
    },
  });
}
