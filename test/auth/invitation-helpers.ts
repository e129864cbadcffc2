import type { FastifyReply } from "fastify";
import { type Ctx, makeCtx, type UserActor } from "../../src/context.js";
import type { User } from "../../src/users/index.js";
import type { TestApp } from "../harness.js";
import { bearer } from "../harness.js";

/** Service-level calls need somewhere to put the Set-Cookie header; it records what was set. */
export function recordingReply(): { reply: FastifyReply; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  const reply = {
    header(name: string, value: string) {
      headers[name.toLowerCase()] = value;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, headers };
}

/** A request's context with nobody signed in yet (what a public route has). */
export function anonymousCtx(t: TestApp): Ctx {
  return { ...t.ownerCtx(), requestId: "req_test" };
}

export function userCtx(t: TestApp, user: User, sessionId: string): Ctx {
  const actor: UserActor = { type: "user", userId: user.id, name: user.name, role: user.role, sessionId };
  return makeCtx(t.db.db, "test", actor, "req_test", t.clock?.now() ?? new Date());
}

/** The token of an invitation URL (`…/invite#<token>`). */
export function tokenOf(url: string): string {
  return url.slice(url.indexOf("#") + 1);
}

/** POST /users/{id}/invitations with an admin key. */
export async function invite(t: TestApp, adminKey: string, userId: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: "POST",
    url: `/api/v1/users/${userId}/invitations`,
    headers: { ...bearer(adminKey), ...headers },
    payload: {},
  });
}
