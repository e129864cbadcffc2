import type { App } from "../http/types.js";
import type { SessionSettings } from "../sessions/index.js";
import { invitationRoutes } from "./routes-invitations.js";

export interface AuthSettings {
  sessions: SessionSettings;
}

/** The /auth routes: sign-in, session, sign-out, invitations accepted, passwords changed, OpenID Connect. */
export function authRoutes(app: App, settings: AuthSettings): void {
  invitationRoutes(app, settings.sessions);
}
