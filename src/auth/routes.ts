import type { App } from "../http/types.js";
import { type InvitationDeps, invitationRoutes } from "./routes-invitations.js";

/** The database, clock and session settings the /auth routes share (public ones have no request ctx). */
export type AuthSettings = InvitationDeps;

/** The /auth routes: sign-in, session, sign-out, invitations accepted, passwords changed, OpenID Connect. */
export function authRoutes(app: App, settings: AuthSettings): void {
  invitationRoutes(app, settings);
}
