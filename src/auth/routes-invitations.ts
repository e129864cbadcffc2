import { z } from "zod";
import { EmptyBody, IdParams } from "../http/input-fields.js";
import type { App } from "../http/types.js";
import type { SessionSettings } from "../sessions/index.js";
import { AcceptInvitationBody, acceptInvitation, CreatedInvitation, createInvitation } from "./invitations.js";
import { ChangePasswordBody, changePassword } from "./password-change.js";
import { SessionBody } from "./sign-in.js";

const tags = ["Sign-in"];

/** `POST /users/{id}/invitations`, `POST /auth/invitations/accept` and `POST /auth/password` (API.md §11). */
export function invitationRoutes(app: App, sessions: SessionSettings): void {
  app.route({
    method: "POST",
    url: "/users/:id/invitations",
    // The URL holds the token: an Idempotency-Key replay never stores or repeats it (409 instead).
    config: { scope: "admin", secretResponse: true },
    schema: {
      tags,
      summary: "Invite a user",
      operationId: "createInvitation",
      description:
        "Admin. Returns `url` = `{origin}/invite#<token>` once: the token (32 random bytes) is stored only as its SHA-256, works once, for 72 hours. Cancels the user's older open invitations. Unknown user → 404; inactive user → 409 `conflict`. A replay with the same Idempotency-Key gets 409 `conflict` (the link is shown only once). The link and token never reach logs or the audit trail (`invitation.create`).",
      params: IdParams,
      body: EmptyBody,
      response: { 201: CreatedInvitation },
    },
    handler: async (req, reply) => {
      const created = await createInvitation(req.ctx, req.params.id, req.publicOrigin);
      return reply.code(201).send(created);
    },
  });

  app.route({
    method: "POST",
    url: "/auth/invitations/accept",
    config: { public: true },
    schema: {
      tags,
      summary: "Accept an invitation",
      operationId: "acceptInvitation",
      description:
        "No key or session needed: the token is the credential. Sets the password and signs in: 200 with the session and `Set-Cookie: cts_session=…` (as `POST /auth/login`). The user's earlier sessions end. Password rules → 422 `validation_error` with one `details` entry per rule broken (12-256 characters; must not contain the email, or its part before the @ when that has 4+ characters, ignoring case; not on the bundled list of 49,233 common passwords, ignoring case). A token that is unknown, already used, replaced by a newer invitation or expired → 404 `not_found`, whose message says which. The user was deactivated since → 409 `conflict`. Nothing changes unless everything succeeds. The password is never logged, stored raw or audited (`invitation.accept`, `session.login`).",
      body: AcceptInvitationBody,
      response: { 200: SessionBody },
    },
    handler: async (req, reply) => {
      const secure = req.publicOrigin.startsWith("https:");
      const session = await acceptInvitation(req.ctx, reply, req.body, { settings: sessions, secure });
      return reply.code(200).send(session);
    },
  });

  app.route({
    method: "POST",
    url: "/auth/password",
    config: { scope: "read" },
    schema: {
      tags,
      summary: "Change your password",
      operationId: "changePassword",
      description:
        "A signed-in person (session cookie, with X-CSRF-Token) changes their own password: 204, this session goes on and every other session of theirs ends. A wrong `current_password` → 403 `forbidden` (not 401: the session stays valid). `new_password` breaking a rule → 422 `validation_error` with `details` (the rules of `POST /auth/invitations/accept`). An API key → 403 `forbidden`: keys have no password. Audited as `user.password_change`, never with a password.",
      body: ChangePasswordBody,
      response: { 204: z.null() },
    },
    handler: async (req, reply) => {
      await changePassword(req.ctx, req.body);
      return reply.code(204).send(null);
    },
  });
}
